"""``torch.optim``: optimizers over parameter groups, and learning-rate schedulers."""

from . import lr_scheduler  # noqa: F401
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

# As in torch.optim, the implementation modules are importable but not package attributes.
del adagrad, adam, adamw, optimizer, rmsprop, sgd  # noqa: F821

__all__ = ["Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD", "lr_scheduler"]
