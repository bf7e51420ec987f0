"""A compiled model whose run-time check fails raises a Python exception
with the check's message, and the process goes on (issue 16)."""

import numpy as np
import pytest

import kiln

SPACE_TO_BATCH = """
func.func @main(%x: tensor<1x?x?x2xf32>) -> tensor<?x?x?x2xf32>
    attributes {tf.entry_function = {inputs = "image", outputs = "blocks"}} {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %paddings = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.SpaceToBatchND"(%x, %block, %paddings) : (tensor<1x?x?x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32> loc("model/space_to_batch")
  return %0 : tensor<?x?x?x2xf32>
}
"""


@pytest.fixture
def space_to_batch(tmp_path):
    path = tmp_path / "space_to_batch.mlir"
    path.write_text(SPACE_TO_BATCH)
    return kiln.compile(path)


def test_failed_check_raises_and_the_model_runs_again(space_to_batch):
    odd = np.zeros((1, 3, 4, 2), np.float32)
    with pytest.raises(ValueError) as failure:
        space_to_batch(odd)
    assert str(failure.value) == (
        "run-time check failed: tf.SpaceToBatchND: padded spatial dimension 0 "
        "must be divisible by its block size (TensorFlow node "
        "'model/space_to_batch')")
    image = np.arange(1 * 4 * 6 * 2, dtype=np.float32).reshape(1, 4, 6, 2)
    blocks = space_to_batch(image)["blocks"]
    assert blocks.shape == (4, 2, 3, 2)
    # Block (i, j) holds image[2y + i, 2x + j].
    np.testing.assert_array_equal(blocks[1], image[0, 0::2, 1::2])
