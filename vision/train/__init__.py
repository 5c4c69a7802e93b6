"""Training recipes (need the ``train`` extra). Nothing here is imported at run time.

``python -m vision.train.digits`` rebuilds ``models/digits.onnx`` (see models/README.md).
:mod:`vision.train.digit_data` (numpy/OpenCV only) builds the crop data sets from the
synthesiser and is shared with ``benchmarks/eval_classifier.py``.
"""
