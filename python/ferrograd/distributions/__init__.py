"""``torch.distributions``: ``Distribution`` with PyTorch's argument and sample validation,
``Categorical``, ``Normal``, ``Bernoulli``, ``Uniform``, ``kl_divergence`` between them, and
``constraints``. Sampling draws from the same random streams as PyTorch (``multinomial``,
``normal``, ``bernoulli``, ``rand``), so seeded programs draw the same samples."""

from . import constraints  # noqa: F401
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Normal", "Uniform", "constraints", "kl_divergence", "register_kl"]
