"""``torch.distributions.constraints``: the sets parameters and samples must lie in, checked
when a distribution validates its arguments."""

__all__ = ["Constraint", "real", "positive", "nonnegative", "unit_interval", "simplex", "boolean",
           "integer_interval", "interval", "greater_than", "less_than", "independent", "real_vector", "dependent"]


class Constraint:
    """A set of values; ``check(value)`` is a bool tensor of which elements are in it."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        """Which elements (or events) of ``value`` satisfy the constraint."""
        raise NotImplementedError

    def __repr__(self):
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (not checked)."""

    def check(self, value):
        """Not checkable: raises ValueError."""
        raise ValueError("Cannot determine validity of dependent constraint")

    def __repr__(self):
        return "Dependent()"


class _Real(Constraint):
    """The extended reals without NaN."""

    def check(self, value):
        """Elements that are not NaN."""
        return value == value


class _Boolean(Constraint):
    """{0, 1}."""
    is_discrete = True

    def check(self, value):
        """Elements equal to 0 or 1."""
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    """``(lower_bound, inf]``."""

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        """Elements above the bound."""
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    """``[-inf, upper_bound)``."""

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        """Elements below the bound."""
        return value < self.upper_bound

    def __repr__(self):
        return f"LessThan(upper_bound={self.upper_bound})"


class _GreaterThanEq(_GreaterThan):
    """``[lower_bound, inf]``."""

    def check(self, value):
        """Elements at or above the bound."""
        return self.lower_bound <= value

    def __repr__(self):
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _Interval(Constraint):
    """``[lower_bound, upper_bound]``."""

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        """Elements within the bounds."""
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(Constraint):
    """The integers in ``[lower_bound, upper_bound]``."""
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        """Integral elements within the bounds."""
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    """Non-negative vectors (the last dimension) that sum to one."""
    event_dim = 1

    def check(self, value):
        """Events that are non-negative and sum to 1 (within 1e-6)."""
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentConstraint(Constraint):
    """``base`` over the last ``reinterpreted_batch_ndims`` dimensions at once."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims
        self.is_discrete = base_constraint.is_discrete

    def check(self, value):
        """Events whose elements all satisfy the base constraint."""
        r = self.base_constraint.check(value)
        for _ in range(self.reinterpreted_batch_ndims):
            r = r.all(-1)
        return r

    def __repr__(self):
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


dependent = _Dependent()
real = _Real()
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
real_vector = _IndependentConstraint(real, 1)
greater_than = _GreaterThan
less_than = _LessThan
interval = _Interval
integer_interval = _IntegerInterval
independent = _IndependentConstraint
