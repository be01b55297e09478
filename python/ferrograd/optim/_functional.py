"""Functional optimizer updates over lists of tensors (``torch.optim._functional``)."""

from .adadelta import adadelta  # noqa: F401
from .adagrad import adagrad  # noqa: F401
from .adam import adam  # noqa: F401
from .adamax import adamax  # noqa: F401
from .adamw import adamw  # noqa: F401
from .asgd import asgd  # noqa: F401
from .nadam import nadam  # noqa: F401
from .radam import radam  # noqa: F401
from .rmsprop import rmsprop  # noqa: F401
from .rprop import rprop  # noqa: F401
from .sgd import sgd  # noqa: F401
