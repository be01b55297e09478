"""``Independent``: reinterprets some batch dimensions of a distribution as event dimensions."""

from . import constraints
from .distribution import Distribution
from .utils import _sum_rightmost

__all__ = ["Independent"]


def _torch():
    import ferrograd

    return ferrograd


class Independent(Distribution):
    """``base_distribution`` with its rightmost ``reinterpreted_batch_ndims`` batch dimensions
    made event dimensions (``log_prob`` and ``entropy`` sum over them)."""

    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                             f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}")
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        batch_shape = shape[:len(shape) - event_dim]
        event_shape = shape[len(shape) - event_dim:]
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with the base distribution's batch expanded to ``batch_shape``."""
        new = self._get_checked_instance(Independent, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.base_dist = self.base_dist.expand(tuple(batch_shape) +
                                              tuple(self.event_shape[:self.reinterpreted_batch_ndims]))
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        super(Independent, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def has_rsample(self):
        """Whether the base distribution has ``rsample``."""
        return self.base_dist.has_rsample

    @property
    def has_enumerate_support(self):
        """The base distribution's, when no dimension is reinterpreted."""
        if self.reinterpreted_batch_ndims > 0:
            return False
        return self.base_dist.has_enumerate_support

    @constraints.dependent_property
    def support(self):
        """The base support, independent over the reinterpreted dimensions."""
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self):
        """The base distribution's mean."""
        return self.base_dist.mean

    @property
    def mode(self):
        """The base distribution's mode."""
        return self.base_dist.mode

    @property
    def variance(self):
        """The base distribution's variance."""
        return self.base_dist.variance

    def sample(self, sample_shape=()):
        """The base distribution's samples."""
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()):
        """The base distribution's reparameterized samples."""
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        """The base ``log_prob`` summed over the reinterpreted dimensions."""
        log_prob = self.base_dist.log_prob(value)
        return _sum_rightmost(log_prob, self.reinterpreted_batch_ndims)

    def entropy(self):
        """The base entropy summed over the reinterpreted dimensions."""
        entropy = self.base_dist.entropy()
        return _sum_rightmost(entropy, self.reinterpreted_batch_ndims)

    def enumerate_support(self, expand=True):
        """The base distribution's support (not over a cartesian product)."""
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self):
        return self.__class__.__name__ + f"({self.base_dist}, {self.reinterpreted_batch_ndims})"
