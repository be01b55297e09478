"""``torch.optim``: optimizers over parameter groups, and learning-rate schedulers."""

from . import lr_scheduler, swa_utils  # noqa: F401
from ._adafactor import Adafactor
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

# As in torch.optim, the implementation modules are importable but not package attributes.
del adadelta, adagrad, adam, adamax, adamw, asgd, lbfgs, nadam, optimizer, radam, rmsprop, rprop, sgd, sparse_adam  # noqa: F821

__all__ = [
    "Adafactor",
    "Adadelta",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "ASGD",
    "LBFGS",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "SGD",
    "SparseAdam",
    "lr_scheduler",
    "swa_utils",
]
