
2
aPlaceholder*
shape
:*
dtype0
0
sConst*
dtype0*
valueBpe0*
T0