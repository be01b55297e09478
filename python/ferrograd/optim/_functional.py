"""Functional optimizer updates over lists of tensors (``torch.optim._functional``)."""

from .adagrad import adagrad  # noqa: F401
from .adam import adam  # noqa: F401
from .adamw import adamw  # noqa: F401
from .rmsprop import rmsprop  # noqa: F401
from .sgd import sgd  # noqa: F401
