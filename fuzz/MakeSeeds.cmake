# Seed corpora for the fuzz harnesses from the tree's test inputs, one
# directory per harness under OUT (docs/reliability.md, "Fuzzing"):
#
#   cmake -DSEEDS=build/bin/kiln-fuzz-seeds -DOPT=build/bin/kiln-opt \
#     -DTRANSLATE=build/bin/kiln-translate -DSRC=. -DOUT=/tmp/seeds \
#     [-DMODELS=~/.cache/kiln/models] -P fuzz/MakeSeeds.cmake
#
# OPT and TRANSLATE (the NPU streams of test/Conversion/NPUToNPUHW) and
# MODELS (the pinned TF.js models, when present) are optional.
foreach(var SEEDS SRC OUT)
  if(NOT ${var})
    message(FATAL_ERROR "MakeSeeds.cmake needs -D${var}=")
  endif()
endforeach()
file(REMOVE_RECURSE ${OUT})

function(seeds mode out)
  execute_process(COMMAND ${SEEDS} ${mode} ${OUT}/${out} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "kiln-fuzz-seeds ${mode} failed: ${output}")
  endif()
  message(STATUS "${output}")
endfunction()

# Text GraphDefs: the importer's and compiler's tests, the examples, and the
# graphs inside split-file tests.
file(GLOB_RECURSE pbtxt
  ${SRC}/test/translate/graphdef/*.pbtxt ${SRC}/test/malformed/*.pbtxt
  ${SRC}/test/kiln-compile/Inputs/*.pbtxt ${SRC}/test/kiln-run/Inputs/*.pbtxt
  ${SRC}/examples/*.pbtxt ${SRC}/unittests/*.pbtxt)
set(graphs)
set(configs)
foreach(file ${pbtxt})
  if(file MATCHES "config\\.pbtxt$")
    list(APPEND configs ${file})
  else()
    list(APPEND graphs ${file})
  endif()
endforeach()
file(GLOB_RECURSE split_tests ${SRC}/test/malformed/*.test
  ${SRC}/test/translate/*.test ${SRC}/test/kiln-compile/*.test)
foreach(dir graphdef-pbtxt compile)
  file(MAKE_DIRECTORY ${OUT}/${dir})
  file(COPY ${graphs} DESTINATION ${OUT}/${dir})
  seeds(split ${dir} .pbtxt ${split_tests})
  file(GLOB split_configs ${OUT}/${dir}/*config.pbtxt)
  if(split_configs)
    file(REMOVE ${split_configs})
  endif()
endforeach()
file(GLOB text_graphs ${OUT}/graphdef-pbtxt/*)
seeds(pb graphdef-pb ${text_graphs})

# tfcompile configs.
file(MAKE_DIRECTORY ${OUT}/config)
file(COPY ${configs} DESTINATION ${OUT}/config)
seeds(split config config.pbtxt ${split_tests})

# MLIR text: the tf dialects' tests and the malformed ones, chunk by chunk.
file(GLOB_RECURSE mlir ${SRC}/test/Dialect/TF/*.mlir
  ${SRC}/test/Dialect/TFExecutor/*.mlir ${SRC}/test/Dialect/TFType/*.mlir
  ${SRC}/test/malformed/mlir/*.mlir)
seeds(split mlir .mlir ${mlir})

# TF.js: the model.json sections of the importer's tests (without weights),
# and the smallest pinned models with their shards.
seeds(split tfjs .json ${split_tests})
if(MODELS AND EXISTS ${MODELS})
  set(small)
  foreach(name antispoof liveness emotion)
    file(GLOB_RECURSE found ${MODELS}/*/${name}.json)
    list(APPEND small ${found})
  endforeach()
  if(small)
    seeds(tfjs tfjs ${small})
  endif()
endif()

# .npub: the example convolutions, and the lowered NPU tests.
seeds(npub npub)
if(OPT AND TRANSLATE)
  file(GLOB lowered ${SRC}/test/Conversion/NPUToNPUHW/npu*-to-npub*.mlir)
  foreach(file ${lowered})
    get_filename_component(name ${file} NAME_WE)
    execute_process(COMMAND ${OPT} ${file} --kiln-npu-to-npuhw-pipeline
      COMMAND ${TRANSLATE} --npuhw-to-npub -o ${OUT}/npub/${name}.npub
      RESULT_VARIABLE status ERROR_QUIET OUTPUT_QUIET)
    if(status EQUAL 0)
      message(STATUS "${name}.npub")
    endif()
  endforeach()
endif()
file(COPY ${OUT}/npub/ DESTINATION ${OUT}/npu-sim)
