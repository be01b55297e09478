"""``torch.special``: the special functions under their SciPy-style names.

The aliases of ``torch.*`` functions (``erf``, ``expit``, ``gammaln``...) are those functions, so
values, gradients and ``grad_fn`` names match. The functions ferrograd has no native kernel for
are ports of the Cephes / Boost / Faddeeva algorithms PyTorch uses (same coefficients, same
branches, evaluated in float64 on the host and rounded to the input's dtype). Those PyTorch
differentiates are ``autograd.Function``s whose backward is built from differentiable ops (so
double backward works) and whose nodes carry PyTorch's names (``SpecialI0EBackward0``...); the
ones PyTorch does not differentiate (the Bessel functions, the orthogonal polynomials,
``airy_ai``) return tensors that do not require grad, as PyTorch's do.
"""

import math

import ferrograd as _torch

__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
    "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e",
    "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
    "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "multigammaln",
    "ndtr", "ndtri", "polygamma", "psi", "round", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0", "xlog1py", "xlogy", "zeta",
]


def erf(input):
    """The error function of the elements."""
    return _torch.erf(input)


def erfc(input):
    """The complementary error function ``1 - erf(x)`` of the elements."""
    return _torch.erfc(input)


def erfinv(input):
    """The inverse error function of the elements."""
    return _torch.erfinv(input)


def expit(input):
    """The logistic sigmoid ``1 / (1 + exp(-x))`` of the elements."""
    return _torch.sigmoid(input)


def logit(input, eps=None):
    """``log(p / (1 - p))``, ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given."""
    return _torch.logit(input, eps)


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0."""
    return _torch.xlogy(input, other)


def log1p(input):
    """``log(1 + x)`` of the elements."""
    return _torch.log1p(input)


def expm1(input):
    """``exp(x) - 1`` of the elements."""
    return _torch.expm1(input)


def exp2(input):
    """``2 ** x`` of the elements."""
    return _torch.exp2(input)


def digamma(input):
    """The digamma function of the elements."""
    return _torch.digamma(input)


psi = digamma


def gammaln(input):
    """``ln |Γ(x)|`` of the elements."""
    return _torch.lgamma(input)


def sinc(input):
    """The normalized sinc ``sin(πx) / (πx)`` of the elements (1 at 0)."""
    return _torch.sinc(input)


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(x)))`` over ``dim``, computed stably."""
    return _torch.logsumexp(input, dim, keepdim)


def softmax(input, dim, *, dtype=None):
    """Softmax over ``dim``."""
    return _torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """Log-softmax over ``dim``."""
    return _torch.log_softmax(input, dim, dtype=dtype)


def round(input, *, decimals=0):
    """The elements rounded half to even (to ``decimals`` decimal places)."""
    return _torch.round(input, decimals=decimals)


# --------------------------------------------------------------------------------------------
# IEEE-754 scalar helpers: ``math`` raises where C returns inf / nan; these return what C does.

_INF = math.inf
_NAN = math.nan
_INT64_MIN = -(2 ** 63)


def _exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return _INF


def _log(v):
    if v > 0:
        return math.log(v)
    return -_INF if v == 0 else _NAN


def _log1p(v):
    if v > -1:
        return math.log1p(v)
    return -_INF if v == -1 else _NAN


def _expm1(v):
    try:
        return math.expm1(v)
    except OverflowError:
        return _INF


def _sqrt(v):
    return math.sqrt(v) if v >= 0 else _NAN


def _sin(v):
    return math.sin(v) if math.isfinite(v) else _NAN


def _cos(v):
    return math.cos(v) if math.isfinite(v) else _NAN


def _lgamma(v):
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):
        return _INF if v == v else _NAN


def _pow(a, b):
    try:
        return math.pow(a, b)
    except OverflowError:
        odd = b == math.floor(b) and abs(b) < 2 ** 53 and int(b) % 2 == 1
        return -_INF if (a < 0 and odd) else _INF
    except ValueError:
        if a == 0:  # 0 ** negative: a pole
            odd = b == math.floor(b) and abs(b) < 2 ** 53 and int(b) % 2 == 1
            return math.copysign(_INF, a) if odd else _INF
        return _NAN


def _div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0:
            return _NAN
        return math.copysign(_INF, a) * math.copysign(1.0, b)


def _to_int64(n):
    """``static_cast<int64_t>(n)`` as x86 does it (NaN, infinities, out of range: INT64_MIN)."""
    if n != n or math.isinf(n) or abs(n) >= 9.223372036854775807e18:
        return _INT64_MIN
    return int(n)


def _floor(v):
    return math.floor(v) if math.isfinite(v) else v


def _horner(x, coeffs):
    r = 0.0
    for c in coeffs:
        r = r * x + c
    return r


def _chbevl(x, coeffs):
    b0 = coeffs[0]
    b1 = 0.0
    b2 = 0.0
    for c in coeffs[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


# --------------------------------------------------------------------------------------------
# Scalar kernels (float in, float out), ports of PyTorch's ATen/native/Math.h.

def _s_entr(x):
    if x != x:
        return x
    if x > 0:
        return -x * _log(x)
    return 0.0 if x == 0 else -_INF


def _erfcx_y100(y100):
    k = int(y100) if y100 == y100 else -1
    if 0 <= k < 100:
        cs = _ERFCX_Y100[k]
        t = 2 * y100 - (2 * k + 1)
        r = cs[-1]
        for c in cs[-2::-1]:
            r = c + r * t
        return r
    return 1.0


_ISPI = 0.56418958354775628694807945156  # 1 / sqrt(pi)


def _s_erfcx(x):
    if x != x:
        return x
    if x >= 0:
        if x > 50:
            if x > 5e7:
                return _ISPI / x
            xx = x * x
            return _ISPI * (xx * (xx + 4.5) + 2) / (x * (xx * (xx + 5) + 3.75))
        return _erfcx_y100(400 / (4 + x))
    if x < -26.7:
        return _INF
    if x < -6.1:
        return 2 * _exp(x * x)
    return 2 * _exp(x * x) - _erfcx_y100(400 / (4 - x))


_FRAC_SQRT_2 = 0.7071067811865476


def _s_log_ndtr(x):
    t = x * _FRAC_SQRT_2
    if x < -1.0:
        return _log(_s_erfcx(-t) / 2) - t * t
    return _log1p(-math.erfc(t) / 2)


def _s_ndtri(y0):
    s2pi = 2.50662827463100050242E0
    if y0 == 0:
        return -_INF
    if y0 == 1:
        return _INF
    if y0 != y0 or y0 < 0 or y0 > 1:
        return _NAN
    code = True
    y = y0
    if y > 1.0 - 0.13533528323661269189:
        y = 1.0 - y
        code = False
    if y > 0.13533528323661269189:
        y = y - 0.5
        y2 = y * y
        x = y + y * (y2 * _horner(y2, _NDTRI_P0) / _horner(y2, _NDTRI_Q0))
        return x * s2pi
    x = math.sqrt(-2.0 * math.log(y))
    x0 = x - math.log(x) / x
    z = 1.0 / x
    if x < 8.0:
        x1 = z * _horner(z, _NDTRI_P1) / _horner(z, _NDTRI_Q1)
    else:
        x1 = z * _horner(z, _NDTRI_P2) / _horner(z, _NDTRI_Q2)
    x = x0 - x1
    return -x if code else x


def _s_i0(v):
    x = abs(v)
    if x <= 8.0:
        return _exp(x) * _chbevl(x / 2.0 - 2.0, _CHEB_I0E_A)
    return _exp(x) * _chbevl(32.0 / x - 2.0, _CHEB_I0E_B) / _sqrt(x)


def _s_i0e(v):
    x = abs(v)
    if x <= 8.0:
        return _chbevl(x / 2.0 - 2.0, _CHEB_I0E_A)
    return _chbevl(32.0 / x - 2.0, _CHEB_I0E_B) / _sqrt(x)


def _s_i1(v):
    x = abs(v)
    if x <= 8.0:
        out = _exp(x) * x * _chbevl(x / 2.0 - 2.0, _CHEB_I1E_A)
    else:
        out = (_exp(x) * _chbevl(32.0 / x - 2.0, _CHEB_I1E_B)) / _sqrt(x)
    return -out if v < 0 else out


def _s_i1e(v):
    x = abs(v)
    if x <= 8.0:
        out = _chbevl(x / 2.0 - 2.0, _CHEB_I1E_A) * x
    else:
        out = _chbevl(32.0 / x - 2.0, _CHEB_I1E_B) / _sqrt(x)
    return -out if v < 0 else out


def _s_trigamma(x):
    sign = 1.0
    result = 0.0
    if x < 0.5:
        sign = -1.0
        sin_pi_x = _sin(math.pi * x)
        result -= _div(math.pi * math.pi, sin_pi_x * sin_pi_x)
        x = 1 - x
    for _ in range(6):
        result += _div(1.0, x * x)
        x += 1
    ixx = _div(1.0, x * x)
    result += _div(1 + _div(1.0, 2 * x) + ixx * (1.0 / 6 - ixx * (1.0 / 30 - ixx * (1.0 / 42))), x)
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def _s_zeta(x, q):
    """The Hurwitz zeta function ``sum_k (k + q) ** -x`` (Cephes' Euler-Maclaurin summation)."""
    if x == 1:
        return _INF
    if x < 1:
        return _NAN
    if x != x or q != q:
        return _NAN
    if q <= 0:
        if q == _floor(q):
            return _INF
        if x != _floor(x):
            return _NAN
    s = _pow(q, -x)
    a = q
    i = 0
    b = 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = _pow(a, -x)
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a = 1.0
    k = 0.0
    for i in range(12):
        a *= x + k
        b /= w
        t = a * b / _ZETA_A[i]
        s = s + t
        t = abs(_div(t, s))
        if t < _MACHEP:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


def _s_polygamma(n, x):
    if n == 1:
        return _s_trigamma(x)
    one = 1.0
    return (one if n % 2 else -one) * _exp(_lgamma(float(n) + one)) * _s_zeta(float(n + 1), x)


# the regularized incomplete gamma functions (SciPy / Cephes / Boost, as PyTorch)

def _ratevl(x, num, denom):
    m, n = len(num) - 1, len(denom) - 1
    if abs(x) > 1:
        y = 1 / x
        num_ans = _horner(y, num[::-1])
        denom_ans = _horner(y, denom[::-1])
        return _pow(x, n - m) * num_ans / denom_ans
    return _horner(x, num) / _horner(x, denom)


def _lanczos_sum_expg_scaled(x):
    return _ratevl(x, _LANCZOS_SUM_EXPG_SCALED_NUM, _LANCZOS_SUM_EXPG_SCALED_DENOM)


def _igam_fac(a, x):
    maxlog = 7.09782712893383996843E2
    lanczos_g = 6.024680040776729583740234375
    if abs(a - x) > 0.4 * abs(a):
        ax = a * _log(x) - x - _lgamma(a)
        if ax < -maxlog:
            return 0.0
        return _exp(ax)
    fac = a + lanczos_g - 0.5
    res = math.sqrt(fac / 2.718281828459045) / _lanczos_sum_expg_scaled(a)
    if a < 200 and x < 200:
        res *= _exp(a - x) * _pow(x / fac, a)
    else:
        num = x - a - lanczos_g + 0.5
        numfac = num / fac
        res *= _exp(a * (_log1p(numfac) - numfac) + x * (0.5 - lanczos_g) / fac)
    return res


def _igam_series(a, x):
    ax = _igam_fac(a, x)
    if ax == 0.0:
        return 0.0
    r, c, ans = a, 1.0, 1.0
    for _ in range(2000):
        r += 1.0
        c *= x / r
        ans += c
        if c <= _MACHEP * ans:
            break
    return ans * ax / a


def _igamc_series(a, x):
    fac, total = 1.0, 0.0
    for n in range(1, 2000):
        fac *= -x / n
        term = fac / (a + n)
        total += term
        if abs(term) <= _MACHEP * abs(total):
            break
    logx = _log(x)
    term = -_expm1(a * logx - _lgamma(1 + a))
    return term - _exp(a * logx - _lgamma(a)) * total


_PI_F32 = 3.1415927410125732  # c10::pi<float>, as PyTorch's asymptotic series uses it


def _igam_asymptotic_series(a, x, igam):
    maxpow = 0
    lam = x / a
    sigma = (x - a) / a
    absoldterm = _INF
    etapow = [1.0] + [0.0] * 24
    total = 0.0
    afac = 1.0
    sgn = -1 if igam else 1
    if lam > 1:
        eta = math.sqrt(-2 * (_log1p(sigma) - sigma))
    elif lam < 1:
        eta = -math.sqrt(-2 * (_log1p(sigma) - sigma))
    else:
        eta = 0.0
    res = 0.5 * math.erfc(sgn * eta * math.sqrt(a / 2))
    for k in range(25):
        row = _IGAM_D[k]
        ck = row[0]
        for n in range(1, 25):
            if n > maxpow:
                etapow[n] = eta * etapow[n - 1]
                maxpow += 1
            ckterm = row[n] * etapow[n]
            ck += ckterm
            if abs(ckterm) < _MACHEP * abs(ck):
                break
        term = ck * afac
        absterm = abs(term)
        if absterm > absoldterm:
            break
        total += term
        if absterm < _MACHEP * abs(total):
            break
        absoldterm = absterm
        afac /= a
    res += sgn * _exp(-0.5 * a * eta * eta) * total / math.sqrt(2 * _PI_F32 * a)
    return res


def _igamc_continued_fraction(a, x):
    big, biginv = 4.503599627370496e15, 2.22044604925031308085e-16
    ax = _igam_fac(a, x)
    if ax == 0.0:
        return 0.0
    y = 1.0 - a
    z = x + y + 1.0
    c = 0.0
    pkm2, qkm2 = 1.0, x
    pkm1, qkm1 = x + 1.0, z * x
    ans = pkm1 / qkm1
    for _ in range(2000):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        if qk != 0:
            r = pk / qk
            t = abs(_div(ans - r, r))
            ans = r
        else:
            t = 1.0
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if abs(pk) > big:
            pkm2 *= biginv
            pkm1 *= biginv
            qkm2 *= biginv
            qkm1 *= biginv
        if t <= _MACHEP:
            break
    return ans * ax


def _s_igammac(a, x):
    if x < 0 or a < 0:
        return _NAN
    if a == 0:
        return 0.0 if x > 0 else _NAN
    if x == 0:
        return 1.0
    if math.isinf(a):
        return _NAN if math.isinf(x) else 1.0
    if math.isinf(x):
        return 0.0
    absxma_a = abs(x - a) / a
    if 20.0 < a < 200.0 and absxma_a < 0.3:
        return _igam_asymptotic_series(a, x, False)
    if a > 200.0 and absxma_a < 4.5 / math.sqrt(a):
        return _igam_asymptotic_series(a, x, False)
    if x > 1.1:
        return 1.0 - _igam_series(a, x) if x < a else _igamc_continued_fraction(a, x)
    if x <= 0.5:
        return 1.0 - _igam_series(a, x) if -0.4 / math.log(x) < a else _igamc_series(a, x)
    return 1.0 - _igam_series(a, x) if x * 1.1 < a else _igamc_series(a, x)


def _s_igamma(a, x):
    if x < 0 or a < 0:
        return _NAN
    if a == 0:
        return 1.0 if x > 0 else _NAN
    if x == 0:
        return 0.0
    if math.isinf(a):
        return _NAN if math.isinf(x) else 0.0
    if math.isinf(x):
        return 1.0
    absxma_a = abs(x - a) / a
    if 20.0 < a < 200.0 and absxma_a < 0.3:
        return _igam_asymptotic_series(a, x, True)
    if a > 200.0 and absxma_a < 4.5 / math.sqrt(a):
        return _igam_asymptotic_series(a, x, True)
    if x > 1.0 and x > a:
        return 1.0 - _s_igammac(a, x)
    return _igam_series(a, x)


# Bessel functions of the first and second kind, the modified ones, Airy's Ai

_PI_4 = 0.785398163397448309615660845819875721
_3PI_4 = 2.356194490192344928846982537459627163
_SQRT_2_PI = 0.797884560802865355879892119868763737
_2_PI = 0.636619772367581343075535053490057448


def _s_bessel_j0(x):
    if x < 0:
        x = -x
    if x <= 5.0:
        if x < 0.00001:
            return 1.0 - x * x / 4.0
        xx = x * x
        rp = _horner(xx, _J0_RP)
        rq = _horner(xx, _J0_RQ)
        return (xx - 5.78318596294678452118e+00) * (xx - 3.04712623436620863991e+01) * rp / rq
    w = 25.0 / (x * x)
    pp, pq, qp, qq = _horner(w, _J0_PP), _horner(w, _J0_PQ), _horner(w, _J0_QP), _horner(w, _J0_QQ)
    return (pp / pq * _cos(x - _PI_4) - 5.0 / x * (qp / qq) * _sin(x - _PI_4)) * _SQRT_2_PI / math.sqrt(x)


def _s_bessel_j1(x):
    if x < 0.0:
        return -_s_bessel_j1(-x)
    if x <= 5.0:
        xx = x * x
        rp = _horner(xx, _J1_RP)
        rq = _horner(xx, _J1_RQ)
        return rp / rq * x * (xx - 1.46819706421238932572e+01) * (xx - 4.92184563216946036703e+01)
    w = 5.0 / x * (5.0 / x)
    pp, pq, qp, qq = _horner(w, _J1_PP), _horner(w, _J1_PQ), _horner(w, _J1_QP), _horner(w, _J1_QQ)
    return (pp / pq * _cos(x - _3PI_4) - 5.0 / x * (qp / qq) * _sin(x - _3PI_4)) * _SQRT_2_PI / math.sqrt(x)


def _s_bessel_y0(x):
    if x <= 5.0:
        if x == 0.0:
            return -_INF
        if x < 0.0:
            return _NAN
        xx = x * x
        yp = _horner(xx, _Y0_YP)
        yq = _horner(xx, _Y0_YQ)
        return yp / yq + (_2_PI * math.log(x) * _s_bessel_j0(x))
    w = 25.0 / (x * x)
    pp, pq, qp, qq = _horner(w, _Y0_PP), _horner(w, _Y0_PQ), _horner(w, _Y0_QP), _horner(w, _Y0_QQ)
    return (pp / pq * _sin(x - _PI_4) + 5.0 / x * (qp / qq) * _cos(x - _PI_4)) * _SQRT_2_PI / _sqrt(x)


def _s_bessel_y1(x):
    if x <= 5.0:
        if x == 0.0:
            return -_INF
        if x <= 0.0:
            return _NAN
        xx = x * x
        yp = _horner(xx, _Y1_YP)
        yq = _horner(xx, _Y1_YQ)
        return x * (yp / yq) + (_2_PI * (_s_bessel_j1(x) * math.log(x) - 1.0 / x))
    w = 5.0 / x * (5.0 / x)
    pp, pq, qp, qq = _horner(w, _Y1_PP), _horner(w, _Y1_PQ), _horner(w, _Y1_QP), _horner(w, _Y1_QQ)
    return (pp / pq * _sin(x - _3PI_4) + 5.0 / x * (qp / qq) * _cos(x - _3PI_4)) * _SQRT_2_PI / _sqrt(x)


def _s_modified_bessel_i0(x):
    ax = abs(x)
    if ax <= 8.0:
        return _exp(ax) * _chbevl((ax / 2.0) - 2.0, _MI0_A)
    return _exp(ax) * _chbevl(32.0 / ax - 2.0, _MI0_B) / _sqrt(ax)


def _s_modified_bessel_i1(x):
    ax = abs(x)
    if ax <= 8.0:
        out = _chbevl((ax / 2.0) - 2.0, _MI1_A) * ax * _exp(ax)
    else:
        out = _exp(ax) * _chbevl(32.0 / ax - 2.0, _MI1_B) / _sqrt(ax)
    return -out if x < 0.0 else out


def _s_modified_bessel_k0(x):
    if x == 0.0:
        return _INF
    if x < 0.0:
        return _NAN
    if x <= 2.0:
        return _chbevl(x * x - 2.0, _MK0_A) - math.log(0.5 * x) * _s_modified_bessel_i0(x)
    return _exp(-x) * _chbevl(8.0 / x - 2.0, _MK0_B) / _sqrt(x)


def _s_modified_bessel_k1(x):
    if x == 0.0:
        return _INF
    if x < 0.0:
        return _NAN
    if x <= 2.0:
        return math.log(0.5 * x) * _s_modified_bessel_i1(x) + _chbevl(x * x - 2.0, _MK1_A) / x
    return _exp(-x) * _chbevl(8.0 / x - 2.0, _MK1_B) / _sqrt(x)


def _s_scaled_modified_bessel_k0(x):
    if x == 0.0:
        return _INF
    if x < 0.0:
        return _NAN
    if x <= 2.0:
        return (_chbevl(x * x - 2.0, _SK0_A) - math.log(0.5 * x) * _s_modified_bessel_i0(x)) * _exp(x)
    return _chbevl(8.0 / x - 2.0, _SK0_B) / _sqrt(x)


def _s_scaled_modified_bessel_k1(x):
    if x == 0.0:
        return _INF
    if x < 0.0:
        return _NAN
    if x <= 2.0:
        return (math.log(0.5 * x) * _s_modified_bessel_i1(x) + _chbevl(x * x - 2.0, _SK1_A) / x) * _exp(x)
    return _chbevl(8.0 / x - 2.0, _SK1_B) / _sqrt(x)


def _s_spherical_bessel_j0(x):
    if math.isinf(x):
        return 0.0
    if abs(x) < 0.5:
        xx = x * x
        return 1.0 + xx * (-1.0 / 6.0 + xx * (1.0 / 120.0 + xx * (-1.0 / 5040.0 + xx * (
            1.0 / 362880.0 + xx * (-1.0 / 39916800.0 + xx * (1.0 / 6227020800.0))))))
    return _sin(x) / x


_EPS64 = 2.220446049250313e-16


def _s_airy_ai(x):
    if math.isinf(x):
        return _NAN
    if x > 103.892:
        return 0.0
    domain_flag = 0
    ai = 0.0
    if x < -2.09:
        sx = math.sqrt(-x)
        z = 1.0 / (-2.0 * x * sx / 3.0)
        zz = z * z
        afn, afd = _horner(zz, _AIRY_AFN), _horner(zz, _AIRY_AFD)
        agn, agd = _horner(zz, _AIRY_AGN), _horner(zz, _AIRY_AGD)
        t = -2.0 * x * sx / 3.0 + 0.25 * math.pi
        return 5.64189583547756286948e-01 / math.sqrt(sx) * (
            _sin(t) * (1.0 + z * z * afn / afd) - _cos(t) * (z * agn / agd))
    if x >= 2.09:
        domain_flag = 5
        zeta = 2.0 * x * math.sqrt(x) / 3.0
        an = _horner(1.0 / zeta, _AIRY_AN)
        ad = _horner(1.0 / zeta, _AIRY_AD)
        ai = 5.64189583547756286948e-01 * (an / ad) / (2.0 * math.sqrt(math.sqrt(x)) * _exp(zeta))
        if x > 8.3203353:
            return ai
    f = 1.0
    g = x
    k = 1.0
    m = 1.0
    n = x
    t = 1.0
    z = x * x * x
    while t > _EPS64:
        m *= z
        k += 1.0
        m /= k
        n *= z
        k += 1.0
        n /= k
        m /= k
        f += m
        k += 1.0
        n /= k
        g += n
        t = abs(_div(m, f))
    if (domain_flag & 1) == 0:
        return 0.355028053887817239260 * f - 0.258819403792806798405 * g
    return ai


# the orthogonal polynomials (``n`` truncated to an integer as PyTorch's kernels do)

def _s_chebyshev_t(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 1.0:
        return 1.0 if (x > 0.0 or n % 2 == 0) else -1.0
    if n > 6 and abs(x) < 1.0:
        return math.cos(n * math.acos(x))
    if n == 0:
        return 1.0
    if n == 1:
        return x
    p, q, r = 1.0, x, x
    k = 2
    while k <= n and q == q:
        r = (x + x) * q - p
        p, q = q, r
        k += 1
    return r


def _s_chebyshev_u(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 1.0:
        return float(n + 1) if (x > 0.0 or n % 2 == 0) else float(-(n + 1))
    if n > 8 and abs(x) < 1.0:
        ac = math.acos(x)
        if math.sin(ac) != 0.0:
            return math.sin((n + 1) * ac) / math.sin(ac)
        return (n + 1) * math.cos((n + 1) * ac) / x
    if n == 0:
        return 1.0
    if n == 1:
        return x + x
    p, q, r = 1.0, x + x, _NAN
    k = 2
    while k <= n and q == q:
        r = (x + x) * q - p
        p, q = q, r
        k += 1
    return r


def _s_chebyshev_v(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 1.0:
        if x > 0.0:
            return 1.0
        return float(n + n + 1) if n % 2 == 0 else float(-(n + n + 1))
    if n > 8 and abs(x) < 1.0:
        ac = math.acos(x)
        if math.sin(ac / 2.0) != 1.0:
            return math.cos((n + 0.5) * ac) / math.cos(ac / 2.0)
        return float(n + n + 1) if n % 2 == 0 else float(-(n + n + 1))
    if n == 0:
        return 1.0
    if n == 1:
        return x + x - 1.0
    p, q, r = 1.0, x + x - 1.0, _NAN
    k = 2
    while k <= n and q == q:
        r = (x + x) * q - p
        p, q = q, r
        k += 1
    return r


def _s_chebyshev_w(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 1.0:
        if x > 0.0:
            return float(n + n + 1)
        return 1.0 if n % 2 == 0 else -1.0
    if n > 8 and abs(x) < 1.0:
        ac = math.acos(x)
        if math.cos(ac / 2.0) != 1.0:
            return math.sin((n + 0.5) * ac) / math.sin(ac / 2.0)
        if x > 0.0:
            return float(n + n + 1)
        return 1.0 if n % 2 == 0 else -1.0
    if n == 0:
        return 1.0
    if n == 1:
        return x + x + 1.0
    p, q, r = 1.0, x + x + 1.0, _NAN
    k = 2
    while k <= n and q == q:
        r = (x + x) * q - p
        p, q = q, r
        k += 1
    return r


def _s_shifted_chebyshev_t(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if x == 1.0:
        return 1.0
    if x == 0.0:
        return 1.0 if n % 2 == 0 else -1.0
    y = x + x - 1.0
    if n > 6 and abs(y) < 1.0:
        return math.cos(n * math.acos(y))
    if n == 0:
        return 1.0
    if n == 1:
        return y
    p, q, r = 1.0, y, _NAN
    k = 2
    while k <= n and q == q:
        r = (y + y) * q - p
        p, q = q, r
        k += 1
    return r


def _s_shifted_chebyshev_u(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if x == 1.0:
        return float(n + 1)
    if x == 0.0:
        return float(n + 1) if n % 2 == 0 else float(-(n + 1))
    y = x + x - 1.0
    if n > 6 and abs(y) < 1.0:
        ac = math.acos(y)
        if math.sin(ac) != 0.0:
            return math.sin((n + 1) * ac) / math.sin(ac)
        return (n + 1) * math.cos((n + 1) * ac) / y
    if n == 0:
        return 1.0
    if n == 1:
        return y + y
    p, q, r = 1.0, y + y, _NAN
    k = 2
    while k <= n and q == q:
        r = (y + y) * q - p
        p, q = q, r
        k += 1
    return r


def _s_shifted_chebyshev_v(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if x == 1.0:
        return 1.0
    if x == 0.0:
        return float(n + n + 1) if n % 2 == 0 else float(-(n + n + 1))
    y = x + x - 1.0
    if n > 6 and abs(y) < 1.0:
        ac = math.acos(y)
        if math.sin(ac / 2.0) != 1.0:
            return math.cos((n + 0.5) * ac) / math.cos(ac / 2.0)
        return float(n + n + 1) if n % 2 == 0 else float(-(n + n + 1))
    if n == 0:
        return 1.0
    if n == 1:
        return y + y - 1.0
    p, q, r = 1.0, y + y - 1.0, _NAN
    k = 2
    while k <= n and q == q:
        r = (y + y) * q - p
        p, q = q, r
        k += 1
    return r


def _s_shifted_chebyshev_w(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if x == 1.0:
        return float(n + n + 1)
    if x == 0.0:
        return 1.0 if n % 2 == 0 else -1.0
    y = x + x - 1.0
    if n > 4 and abs(y) < 1.0:
        ac = math.acos(y)
        if math.cos(ac / 2.0) != 1.0:
            return math.sin((n + 0.5) * ac) / math.sin(ac / 2.0)
        return 1.0 if n % 2 == 0 else -1.0
    if n == 0:
        return 1.0
    if n == 1:
        return y + y + 1.0
    p, q, r = 1.0, y + y + 1.0, _NAN
    k = 2
    while k <= n and q == q:
        r = (y + y) * q - p
        p, q = q, r
        k += 1
    return r


def _s_hermite_h(x, n, limit=512):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if n == 0:
        return 1.0
    if n == 1:
        return x + x
    if n > limit:
        return _NAN
    p, q, r = 1.0, x + x, 0.0
    for k in range(2, n + n, 2):
        r = (x + x) * q - k * p
        p, q = q, r
    return r


def _s_hermite_he(x, n, limit=512):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if n == 0:
        return 1.0
    if n == 1:
        return x
    if n > limit:
        return _NAN
    p, q, r = 1.0, x, 0.0
    for k in range(1, n):
        r = x * q - k * p
        p, q = q, r
    return r


def _s_laguerre_l(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 0.0:
        return 1.0
    if n == 0:
        return 1.0
    if n == 1:
        return 1.0 - x
    p, q, r = 1.0, 1.0 - x, _NAN
    k = 1
    while k < n and q == q:
        r = (((k + k) + (1.0 - x)) * q - k * p) / (k + 1)
        p, q = q, r
        k += 1
    return r


def _s_legendre_p(x, n):
    n = _to_int64(n)
    if n < 0:
        return 0.0
    if abs(x) == 1.0:
        return 1.0 if (x > 0.0 or n % 2 == 0) else -1.0
    if n == 0:
        return 1.0
    if n == 1:
        return x
    p, q, r = 1.0, x, _NAN
    k = 1
    while k < n and q == q:
        r = ((k + k + 1) * x * q - k * p) / (k + 1)
        p, q = q, r
        k += 1
    return r


# --------------------------------------------------------------------------------------------
# Tensor plumbing

_DTYPE_NAMES = {"complex64": "ComplexFloat", "complex128": "ComplexDouble", "complex32": "ComplexHalf"}


def _require_tensor(fname, value, argname="input", position=1):
    if not isinstance(value, _torch.Tensor):
        raise TypeError(f"{fname}(): argument '{argname}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")
    return value


def _check_real(kernel, *tensors):
    for t in tensors:
        if t.dtype.is_complex:
            name = _DTYPE_NAMES.get(str(t.dtype).split(".")[-1], str(t.dtype))
            raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def _float_dtype(dtype):
    return dtype if dtype.is_floating_point else _torch.get_default_dtype()


def _map(fn, dtype, *tensors):
    """``fn`` (float64 scalars in and out) over the broadcast elements, as a ``dtype`` tensor
    (the inputs are rounded to ``dtype`` first, as PyTorch's kernels see them)."""
    with _torch.no_grad():
        ts = [t.detach().to(dtype) for t in tensors]
        if len(ts) > 1:
            ts = list(_torch.broadcast_tensors(*ts))
        shape = ts[0].shape
        cols = [t.to(_torch.float64).reshape(-1).tolist() for t in ts]
        vals = [fn(*args) for args in zip(*cols)]
        return _torch.tensor(vals, dtype=_torch.float64).reshape(shape).to(dtype)


def _write_out(result, out):
    if out is None:
        return result
    with _torch.no_grad():
        if tuple(out.shape) != tuple(result.shape):
            out.set_(_torch.empty(result.shape, dtype=out.dtype))
        out.copy_(result)
    return out


def _promote(fname, input, other):
    """Two operands (tensors or Python numbers) as tensors of their promoted floating dtype."""
    if not isinstance(input, _torch.Tensor) and not isinstance(other, _torch.Tensor):
        raise TypeError(f"{fname}() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__}), but expected at least one Tensor")
    dtype = _float_dtype(_torch.result_type(input, other))

    def conv(v):
        if isinstance(v, _torch.Tensor):
            return v if v.dtype == dtype else v.to(dtype)
        return _torch.tensor(v, dtype=dtype)
    return conv(input), conv(other), dtype


_FUNCTIONS = {}


def _function(key, make):
    """The ``autograd.Function`` class ``make()`` builds, once; its node is named ``key`` (the
    name of PyTorch's node for the same function)."""
    cls = _FUNCTIONS.get(key)
    if cls is None:
        from .autograd import Function
        cls = make(Function)
        cls._backward_cls.__name__ = cls._backward_cls.__qualname__ = key
        _FUNCTIONS[key] = cls
    return cls


def _unary(node, kernel, scalar_fn, derivative):
    """An elementwise function with a derivative: the values from ``scalar_fn``, the backward
    ``derivative(grad, x)`` built from differentiable ops."""
    def make(Function):
        class _Unary(Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return _map(scalar_fn, x.dtype, x)

            @staticmethod
            def backward(ctx, grad):
                x, = ctx.saved_tensors
                return derivative(grad, x)
        _Unary.__name__ = _Unary.__qualname__ = node[:-len("Backward0")]
        return _Unary

    def apply(input, out=None):
        _check_real(kernel, input)
        x = input if input.dtype.is_floating_point else input.to(_float_dtype(input.dtype))
        if out is not None or not (_torch.is_grad_enabled() and x.requires_grad):
            return _write_out(_map(scalar_fn, x.dtype, x), out)
        return _function(node, make).apply(x)
    return apply


def _nograd(kernel, scalar_fn):
    """An elementwise function PyTorch does not differentiate: its result never requires grad."""
    def apply(input, out=None):
        _check_real(kernel, input)
        return _write_out(_map(scalar_fn, _float_dtype(input.dtype), input), out)
    return apply


def _nograd2(fname, kernel, scalar_fn):
    def apply(input, n, out=None):
        x, nn, dtype = _promote(fname, input, n)
        _check_real(kernel, x, nn)
        return _write_out(_map(scalar_fn, dtype, x, nn), out)
    return apply


# --------------------------------------------------------------------------------------------
# the differentiable functions

_SQRT_2PI = math.sqrt(2 * math.pi)

_entr = _unary("SpecialEntrBackward0", "entr_cpu", _s_entr, lambda g, x: g * (-(1 + x.log())))
_erfcx = _unary("SpecialErfcxBackward0", "erfcx_cpu", _s_erfcx,
                lambda g, x: (2.0 * x * erfcx(x) - 2.0 / math.sqrt(math.pi)) * g)
_log_ndtr = _unary("SpecialLogNdtrBackward0", "log_ndtr_cpu", _s_log_ndtr,
                   lambda g, x: g / _SQRT_2PI * (log_ndtr(x) + x.pow(2) / 2).neg().exp())
_ndtri = _unary("SpecialNdtriBackward0", "ndtri_cpu", _s_ndtri,
                lambda g, x: g * _SQRT_2PI * (ndtri(x).square() / 2).exp())
_i0 = _unary("I0Backward0", "i0_cpu", _s_i0, lambda g, x: g * i1(x))
_i0e = _unary("SpecialI0EBackward0", "i0e_cpu", _s_i0e, lambda g, x: g * (i1e(x) - x.sgn() * i0e(x)))


def _i1_derivative(scaled):
    def derivative(grad, x):
        eps = _torch.finfo(x.dtype).eps
        not_tiny = x.abs() > eps
        safe = _torch.where(not_tiny, x, _torch.full((), eps, dtype=x.dtype))
        if scaled:
            gradx = i0e(safe) - i1e(x) * (safe.sgn() + safe.reciprocal())
        else:
            gradx = i0(safe) - i1(x) * safe.reciprocal()
        return grad * _torch.where(not_tiny, gradx, _torch.full((), 0.5, dtype=x.dtype))
    return derivative


_i1 = _unary("SpecialI1Backward0", "i1_cpu", _s_i1, _i1_derivative(False))
_i1e = _unary("SpecialI1EBackward0", "i1e_cpu", _s_i1e, _i1_derivative(True))


def entr(input, *, out=None):
    """The entropy ``-x * ln(x)`` of the elements (0 at 0, ``-inf`` below 0)."""
    return _entr(_require_tensor("special_entr", input), out)


def erfcx(input, *, out=None):
    """The scaled complementary error function ``exp(x**2) * erfc(x)`` of the elements."""
    return _erfcx(_require_tensor("special_erfcx", input), out)


def ndtr(input, *, out=None):
    """The standard normal CDF ``(1 + erf(x / sqrt(2))) / 2`` of the elements."""
    x = _require_tensor("special_ndtr", input)
    _check_real("ndtr_cpu", x)
    result = (1 + _torch.erf(x * _FRAC_SQRT_2)) * 0.5
    return _write_out(result, out)


def log_ndtr(input, *, out=None):
    """The log of the standard normal CDF, accurate far into both tails."""
    return _log_ndtr(_require_tensor("special_log_ndtr", input), out)


def ndtri(input, *, out=None):
    """The inverse of the standard normal CDF (the normal quantile function)."""
    return _ndtri(_require_tensor("special_ndtri", input), out)


def i0(input, *, out=None):
    """The modified Bessel function of the first kind of order 0 (``torch.i0``)."""
    return _i0(_require_tensor("special_i0", input), out)


def i0e(input, *, out=None):
    """The exponentially scaled modified Bessel function ``exp(-|x|) * I0(x)``."""
    return _i0e(_require_tensor("special_i0e", input), out)


def i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1."""
    return _i1(_require_tensor("special_i1", input), out)


def i1e(input, *, out=None):
    """The exponentially scaled modified Bessel function ``exp(-|x|) * I1(x)``."""
    return _i1e(_require_tensor("special_i1e", input), out)


def _polygamma_values(n, x):
    if n == 0:
        with _torch.no_grad():
            return _torch.digamma(x.detach())
    return _map(lambda v: _s_polygamma(n, v), x.dtype, x)


def _make_polygamma(Function):
    class Polygamma(Function):
        @staticmethod
        def forward(ctx, n, x):
            ctx.n = n
            ctx.save_for_backward(x)
            return _polygamma_values(n, x)

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return None, grad * polygamma(ctx.n + 1, x)
    return Polygamma


def polygamma(n, input, *, out=None):
    """The ``n``-th derivative of the digamma function (``torch.polygamma``): digamma for 0,
    trigamma for 1, ``(-1)**(n+1) n! zeta(n+1, x)`` above."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    x = _require_tensor("polygamma", input, "input", 2)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    _check_real("polygamma", x)
    if not x.dtype.is_floating_point:
        x = x.to(_float_dtype(x.dtype))
    if out is not None or not (_torch.is_grad_enabled() and x.requires_grad):
        return _write_out(_polygamma_values(n, x), out)
    return _function("PolygammaBackward0", _make_polygamma).apply(n, x)


def _make_mvlgamma(Function):
    class Mvlgamma(Function):
        @staticmethod
        def forward(ctx, x, p):
            ctx.p = p
            ctx.save_for_backward(x)
            return _mvlgamma_values(x, p)

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            args = _mvlgamma_args(x, ctx.p)
            return grad * args.digamma().sum(-1), None
    return Mvlgamma


def _mvlgamma_args(x, p):
    return _torch.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x.dtype) + x.unsqueeze(-1)


def _mvlgamma_values(x, p):
    with _torch.no_grad():
        return _mvlgamma_args(x.detach(), p).lgamma().sum(-1) + p * (p - 1) * math.log(math.pi) * 0.25


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma ``ln Γ_p(x)`` of dimension ``p`` (``torch.mvlgamma``)."""
    x = _require_tensor("special_multigammaln", input)
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"special_multigammaln(): argument 'p' (position 2) must be int, not {type(p).__name__}")
    if x.dtype == _torch.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    _check_real("mvlgamma", x)
    if not x.dtype.is_floating_point:
        x = x.to(_float_dtype(x.dtype))
    if out is not None or not (_torch.is_grad_enabled() and x.requires_grad):
        return _write_out(_mvlgamma_values(x, p), out)
    return _function("MvlgammaBackward0", _make_mvlgamma).apply(x, p)


def _make_xlog1py(Function):
    class Xlog1py(Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return _map(_s_xlog1py, x.dtype, x, y)

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            gx = gy = None
            if ctx.needs_input_grad[0]:
                gx = xlog1py(grad, y).masked_fill((x == 0.0) & (y <= -1.0), 0.0)
            if ctx.needs_input_grad[1]:
                gy = grad * x / (y + 1)
            return gx, gy
    return Xlog1py


def _s_xlog1py(x, y):
    if y != y:
        return _NAN
    if x == 0:
        return 0.0
    return x * _log1p(y)


def _binary(fname, node, make, kernel, input, other, out, scalar_fn):
    x, y, dtype = _promote(fname, input, other)
    _check_real(kernel, x, y)
    if out is not None or not (_torch.is_grad_enabled() and (x.requires_grad or y.requires_grad)):
        return _write_out(_map(scalar_fn, dtype, x, y), out)
    x, y = _torch.broadcast_tensors(x, y)
    return _function(node, make).apply(x, y)


def xlog1py(input, other, *, out=None):
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN)."""
    return _binary("special_xlog1py", "SpecialXlog1PyBackward0", _make_xlog1py, "xlog1py_cpu",
                   input, other, out, _s_xlog1py)


def _make_zeta(Function):
    class Zeta(Function):
        @staticmethod
        def forward(ctx, x, q):
            ctx.save_for_backward(x, q)
            return _map(_s_zeta, x.dtype, x, q)

        @staticmethod
        def backward(ctx, grad):
            x, q = ctx.saved_tensors
            if ctx.needs_input_grad[0]:
                raise NotImplementedError("the derivative for 'zeta' is not implemented.")
            return None, grad * -x * zeta(x + 1.0, q)
    return Zeta


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function ``sum_{k>=0} (k + other) ** -input`` (Euler-Maclaurin, as Cephes)."""
    return _binary("special_zeta", "SpecialZetaBackward0", _make_zeta, "zeta_cpu", input, other, out, _s_zeta)


def _make_igamma(upper):
    def make(Function):
        class Igamma(Function):
            @staticmethod
            def forward(ctx, a, x):
                ctx.save_for_backward(a, x)
                return _map(_s_igammac if upper else _s_igamma, x.dtype, a, x)

            @staticmethod
            def backward(ctx, grad):
                a, x = ctx.saved_tensors
                if ctx.needs_input_grad[0]:
                    raise NotImplementedError(
                        f"the derivative for '{'igammac' if upper else 'igamma'}: input' is not implemented.")
                d = ((a - 1) * x.log() - x - a.lgamma()).exp()
                return None, (-grad if upper else grad) * d
        return Igamma
    return make


def gammainc(input, other, *, out=None):
    """The regularized lower incomplete gamma function ``P(input, other)`` (differentiable in
    ``other`` only, as PyTorch)."""
    _require_tensor("special_gammainc", input, "input", 1)
    _require_tensor("special_gammainc", other, "other", 2)
    return _binary("special_gammainc", "IgammaBackward0", _make_igamma(False), "igamma_cpu",
                   input, other, out, _s_igamma)


def gammaincc(input, other, *, out=None):
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P(input, other)``,
    computed directly (accurate in the upper tail)."""
    _require_tensor("special_gammaincc", input, "input", 1)
    _require_tensor("special_gammaincc", other, "other", 2)
    return _binary("special_gammaincc", "IgammacBackward0", _make_igamma(True), "igammac_cpu",
                   input, other, out, _s_igammac)


# --------------------------------------------------------------------------------------------
# the functions PyTorch does not differentiate

def _unary_nograd(fname, kernel, scalar_fn, doc):
    impl = _nograd(kernel, scalar_fn)

    def f(input, *, out=None):
        return impl(_require_tensor(fname, input), out)
    f.__doc__ = doc
    return f


airy_ai = _unary_nograd("special_airy_ai", "airy_ai_cpu", _s_airy_ai, "The Airy function Ai of the elements.")
bessel_j0 = _unary_nograd("special_bessel_j0", "bessel_j0_cpu", _s_bessel_j0,
                          "The Bessel function of the first kind of order 0.")
bessel_j1 = _unary_nograd("special_bessel_j1", "bessel_j1_cpu", _s_bessel_j1,
                          "The Bessel function of the first kind of order 1.")
bessel_y0 = _unary_nograd("special_bessel_y0", "bessel_y0_cpu", _s_bessel_y0,
                          "The Bessel function of the second kind of order 0.")
bessel_y1 = _unary_nograd("special_bessel_y1", "bessel_y1_cpu", _s_bessel_y1,
                          "The Bessel function of the second kind of order 1.")
modified_bessel_i0 = _unary_nograd("special_modified_bessel_i0", "modified_bessel_i0_cpu", _s_modified_bessel_i0,
                                   "The modified Bessel function of the first kind of order 0.")
modified_bessel_i1 = _unary_nograd("special_modified_bessel_i1", "modified_bessel_i1_cpu", _s_modified_bessel_i1,
                                   "The modified Bessel function of the first kind of order 1.")
modified_bessel_k0 = _unary_nograd("special_modified_bessel_k0", "modified_bessel_k0_cpu", _s_modified_bessel_k0,
                                   "The modified Bessel function of the second kind of order 0.")
modified_bessel_k1 = _unary_nograd("special_modified_bessel_k1", "modified_bessel_k1_cpu", _s_modified_bessel_k1,
                                   "The modified Bessel function of the second kind of order 1.")
scaled_modified_bessel_k0 = _unary_nograd(
    "special_scaled_modified_bessel_k0", "scaled_modified_bessel_k0_cpu", _s_scaled_modified_bessel_k0,
    "The exponentially scaled modified Bessel function of the second kind of order 0, ``exp(x) K0(x)``.")
scaled_modified_bessel_k1 = _unary_nograd(
    "special_scaled_modified_bessel_k1", "scaled_modified_bessel_k1_cpu", _s_scaled_modified_bessel_k1,
    "The exponentially scaled modified Bessel function of the second kind of order 1, ``exp(x) K1(x)``.")
spherical_bessel_j0 = _unary_nograd("special_spherical_bessel_j0", "spherical_bessel_j0_cpu", _s_spherical_bessel_j0,
                                    "The spherical Bessel function of the first kind of order 0, ``sin(x) / x``.")


def _polynomial(fname, kernel, scalar_fn, doc, limit32=None):
    def f(input, n, *, out=None):
        x, nn, dtype = _promote(fname, input, n)
        _check_real(kernel, x, nn)
        fn = scalar_fn
        if limit32 is not None and dtype != _torch.float64:
            def fn(v, k):
                return scalar_fn(v, k, limit32)
        return _write_out(_map(fn, dtype, x, nn), out)
    f.__doc__ = doc
    return f


chebyshev_polynomial_t = _polynomial("special_chebyshev_polynomial_t", "chebyshev_polynomial_t_cpu", _s_chebyshev_t,
                                     "The Chebyshev polynomial of the first kind ``T_n(input)``.")
chebyshev_polynomial_u = _polynomial("special_chebyshev_polynomial_u", "chebyshev_polynomial_u_cpu", _s_chebyshev_u,
                                     "The Chebyshev polynomial of the second kind ``U_n(input)``.")
chebyshev_polynomial_v = _polynomial("special_chebyshev_polynomial_v", "chebyshev_polynomial_v_cpu", _s_chebyshev_v,
                                     "The Chebyshev polynomial of the third kind ``V_n(input)``.")
chebyshev_polynomial_w = _polynomial("special_chebyshev_polynomial_w", "chebyshev_polynomial_w_cpu", _s_chebyshev_w,
                                     "The Chebyshev polynomial of the fourth kind ``W_n(input)``.")
shifted_chebyshev_polynomial_t = _polynomial(
    "special_shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_t_cpu", _s_shifted_chebyshev_t,
    "The shifted Chebyshev polynomial of the first kind ``T*_n(input) = T_n(2 input - 1)``.")
shifted_chebyshev_polynomial_u = _polynomial(
    "special_shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_u_cpu", _s_shifted_chebyshev_u,
    "The shifted Chebyshev polynomial of the second kind ``U*_n(input) = U_n(2 input - 1)``.")
shifted_chebyshev_polynomial_v = _polynomial(
    "special_shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_v_cpu", _s_shifted_chebyshev_v,
    "The shifted Chebyshev polynomial of the third kind ``V*_n(input) = V_n(2 input - 1)``.")
shifted_chebyshev_polynomial_w = _polynomial(
    "special_shifted_chebyshev_polynomial_w", "shifted_chebyshev_polynomial_w_cpu", _s_shifted_chebyshev_w,
    "The shifted Chebyshev polynomial of the fourth kind ``W*_n(input) = W_n(2 input - 1)``.")
hermite_polynomial_h = _polynomial("special_hermite_polynomial_h", "hermite_polynomial_h_cpu", _s_hermite_h,
                                   "The physicists' Hermite polynomial ``H_n(input)`` (NaN above degree 512, "
                                   "128 below float64).", limit32=128)
hermite_polynomial_he = _polynomial("special_hermite_polynomial_he", "hermite_polynomial_he_cpu", _s_hermite_he,
                                    "The probabilists' Hermite polynomial ``He_n(input)`` (NaN above degree 512, "
                                    "128 below float64).", limit32=128)
laguerre_polynomial_l = _polynomial("special_laguerre_polynomial_l", "laguerre_polynomial_l_cpu", _s_laguerre_l,
                                    "The Laguerre polynomial ``L_n(input)``.")
legendre_polynomial_p = _polynomial("special_legendre_polynomial_p", "legendre_polynomial_p_cpu", _s_legendre_p,
                                    "The Legendre polynomial ``P_n(input)``.")


# --------------------------------------------------------------------------------------------
# ``torch.*`` / ``Tensor.*`` spellings (exported by the package)

def _torch_i0(input, *, out=None):
    """``torch.i0``: the modified Bessel function of the first kind of order 0."""
    return _i0(_require_tensor("i0", input), out)


def mvlgamma(input, p, *, out=None):
    """``torch.mvlgamma``: the multivariate log-gamma of dimension ``p`` (``special.multigammaln``)."""
    return multigammaln(input, p, out=out)


def _tensor_i0(self):
    """``Tensor.i0()``: the modified Bessel function of the first kind of order 0."""
    return _torch_i0(self)


def _tensor_i0_(self):
    """``Tensor.i0_()``: ``i0`` in place."""
    return self.copy_(i0(self))


def _tensor_polygamma(self, n):
    """``Tensor.polygamma(n)``: the ``n``-th derivative of digamma."""
    return polygamma(n, self)


def _tensor_polygamma_(self, n):
    """``Tensor.polygamma_(n)``: ``polygamma`` in place."""
    return self.copy_(polygamma(n, self))


def _tensor_mvlgamma(self, p):
    """``Tensor.mvlgamma(p)``: the multivariate log-gamma of dimension ``p``."""
    return multigammaln(self, p)


def _tensor_mvlgamma_(self, p):
    """``Tensor.mvlgamma_(p)``: ``mvlgamma`` in place."""
    return self.copy_(multigammaln(self, p))


# --------------------------------------------------------------------------------------------
# Coefficient tables (Cephes, Boost, Faddeeva; the values PyTorch's ATen/native/Math.h holds)

_AIRY_AN = (
    0.346538101525629,
    12.007595273964581,
    76.27960536152345,
    168.08922493463058,
    159.75639135016442,
    70.53609068404442,
    14.026469116338967,
    1.0,
)

_AIRY_AD = (
    0.5675945326387702,
    14.75625625848472,
    84.51389701414746,
    177.31808814540045,
    164.2346928715297,
    71.47784008255756,
    14.095913560783403,
    1.0,
)

_AIRY_AFN = (
    -0.1316963234183318,
    -0.6264565444319123,
    -0.6931580360369335,
    -0.2797799815451191,
    -0.04919001326095003,
    -0.004062659235948854,
    -0.0001592764962392621,
    -2.776491081552329e-06,
    -1.6778769848911465e-08,
)

_AIRY_AFD = (
    13.356042070655324,
    32.682503279522464,
    26.736704094149957,
    9.187074029072596,
    1.4752914677166642,
    0.11568717379518804,
    0.004402916416152112,
    7.547203482874142e-05,
    4.5185009297058035e-07,
)

_AIRY_AGN = (
    0.01973399320916857,
    0.39110302961568827,
    1.0657989759959559,
    0.9391692298166502,
    0.35146565610554764,
    0.06338889196289255,
    0.005858041130483885,
    0.000282851600836737,
    6.98793669997261e-06,
    8.117892395543892e-08,
    3.415517847659236e-10,
)

_AIRY_AGD = (
    9.30892908077442,
    19.835292871831214,
    15.564662893286462,
    5.476860694229755,
    0.9542936116189619,
    0.08645808263523921,
    0.004126565238242226,
    0.00010125908511650914,
    1.1716673321441352e-06,
    4.9183457006293e-09,
)

_J0_PP = (
    0.0007969367292973471,
    0.08283523921074408,
    1.239533716464143,
    5.447250030587687,
    8.74716500199817,
    5.303240382353949,
    1.0,
)

_J0_PQ = (
    0.0009244088105588637,
    0.08562884743544745,
    1.2535274390105895,
    5.470977403304171,
    8.761908832370695,
    5.306052882353947,
    1.0,
)

_J0_QP = (
    -0.011366383889846916,
    -1.2825271867050931,
    -19.553954425773597,
    -93.20601521237683,
    -177.68116798048806,
    -147.07750515495118,
    -51.41053267665993,
    -6.050143506007285,
)

_J0_QQ = (
    64.3178256118178,
    856.4300259769806,
    3882.4018360540163,
    7240.467741956525,
    5930.727011873169,
    2062.0933166032783,
    242.0057402402914,
)

_J0_RP = (
    -4794432209.782018,
    1956174919465.5657,
    -249248344360967.72,
    9708622510473064.0,
)

_J0_RQ = (
    499.563147152651,
    173785.4016763747,
    48440965.83399621,
    11185553704.535683,
    2112775201154.892,
    310518229857422.56,
    3.1812195594320496e+16,
    1.7108629408104315e+18,
)

_J1_PP = (
    0.0007621256162081731,
    0.07313970569409176,
    1.1271960812968493,
    5.112079511468076,
    8.424045901417724,
    5.214515986823615,
    1.0,
)

_J1_PQ = (
    0.0005713231280725487,
    0.06884559087544954,
    1.105142326340617,
    5.073863861286015,
    8.399855543276042,
    5.209828486823619,
    1.0,
)

_J1_QP = (
    0.05108625947501766,
    4.982138729512334,
    75.82382841325453,
    366.7796093601508,
    710.8563049989261,
    597.4896124006136,
    211.68875710057213,
    25.207020585802372,
)

_J1_QQ = (
    74.23732770356752,
    1056.4488603826283,
    4986.410583376536,
    9562.318924047562,
    7997.041604473507,
    2826.1927851763908,
    336.0936078106983,
)

_J1_RP = (
    -899971225.7055594,
    452228297998.19403,
    -72749424522181.83,
    3682957328638529.0,
)

_J1_RQ = (
    620.8364781180543,
    256987.25675774884,
    83514679.14319493,
    22151159547.97925,
    4749141220799.914,
    784369607876235.9,
    8.952223361846274e+16,
    5.322786203326801e+18,
)

_Y0_PP = _J0_PP  # the same coefficients (ATen names them twice)

_Y0_PQ = _J0_PQ  # the same coefficients (ATen names them twice)

_Y0_QP = _J0_QP  # the same coefficients (ATen names them twice)

_Y0_QQ = _J0_QQ  # the same coefficients (ATen names them twice)

_Y0_YP = (
    15592.436785523574,
    -14663929.59039716,
    5435264770.518765,
    -982136065717.9115,
    87590639439536.7,
    -3466283033847297.0,
    4.4273326857256984e+16,
    -1.8495080043698668e+16,
)

_Y0_YQ = (
    1041.2835366425984,
    626107.330137135,
    268919633.39381415,
    86400248710.3935,
    20297961275010.555,
    3171577528429750.5,
    2.5059625617265306e+17,
)

_Y1_PP = _J1_PP  # the same coefficients (ATen names them twice)

_Y1_PQ = _J1_PQ  # the same coefficients (ATen names them twice)

_Y1_QP = _J1_QP  # the same coefficients (ATen names them twice)

_Y1_QQ = _J1_QQ  # the same coefficients (ATen names them twice)

_Y1_YP = (
    1263204747.9017804,
    -647355876379.1603,
    114509511541823.73,
    -8127702555013251.0,
    2.024394757135949e+17,
    -7.788771962659501e+17,
)

_Y1_YQ = (
    594.3015923461282,
    235564.09294306856,
    73481194.44597217,
    18760131610.870617,
    3882312774962.3857,
    620557727146953.8,
    6.871410873553005e+16,
    3.9727060811656064e+18,
)

_MI0_A = (
    -4.4153416464793395e-18,
    3.3307945188222384e-17,
    -2.431279846547955e-16,
    1.715391285555133e-15,
    -1.1685332877993451e-14,
    7.676185498604936e-14,
    -4.856446783111929e-13,
    2.95505266312964e-12,
    -1.726826291441556e-11,
    9.675809035373237e-11,
    -5.189795601635263e-10,
    2.6598237246823866e-09,
    -1.300025009986248e-08,
    6.046995022541919e-08,
    -2.670793853940612e-07,
    1.1173875391201037e-06,
    -4.4167383584587505e-06,
    1.6448448070728896e-05,
    -5.754195010082104e-05,
    0.00018850288509584165,
    -0.0005763755745385824,
    0.0016394756169413357,
    -0.004324309995050576,
    0.010546460394594998,
    -0.02373741480589947,
    0.04930528423967071,
    -0.09490109704804764,
    0.17162090152220877,
    -0.3046826723431984,
    0.6767952744094761,
)

_MI0_B = (
    -7.233180487874754e-18,
    -4.830504485944182e-18,
    4.46562142029676e-17,
    3.461222867697461e-17,
    -2.8276239805165836e-16,
    -3.425485619677219e-16,
    1.7725601330565263e-15,
    3.8116806693526224e-15,
    -9.554846698828307e-15,
    -4.150569347287222e-14,
    1.54008621752141e-14,
    3.8527783827421426e-13,
    7.180124451383666e-13,
    -1.7941785315068062e-12,
    -1.3215811840447713e-11,
    -3.1499165279632416e-11,
    1.1889147107846439e-11,
    4.94060238822497e-10,
    3.3962320257083865e-09,
    2.266668990498178e-08,
    2.0489185894690638e-07,
    2.8913705208347567e-06,
    6.889758346916825e-05,
    0.0033691164782556943,
    0.8044904110141088,
)

_MI1_A = (
    2.7779141127610464e-18,
    -2.111421214358166e-17,
    1.5536319577362005e-16,
    -1.1055969477353862e-15,
    7.600684294735408e-15,
    -5.042185504727912e-14,
    3.223793365945575e-13,
    -1.9839743977649436e-12,
    1.1736186298890901e-11,
    -6.663489723502027e-11,
    3.625590281552117e-10,
    -1.8872497517228294e-09,
    9.381537386495773e-09,
    -4.445059128796328e-08,
    2.0032947535521353e-07,
    -8.568720264695455e-07,
    3.4702513081376785e-06,
    -1.3273163656039436e-05,
    4.781565107550054e-05,
    -0.00016176081582589674,
    0.0005122859561685758,
    -0.0015135724506312532,
    0.004156422944312888,
    -0.010564084894626197,
    0.024726449030626516,
    -0.05294598120809499,
    0.1026436586898471,
    -0.17641651835783406,
    0.25258718644363365,
)

_MI1_B = (
    7.517296310842105e-18,
    4.414348323071708e-18,
    -4.6503053684893586e-17,
    -3.209525921993424e-17,
    2.96262899764595e-16,
    3.3082023109209285e-16,
    -1.8803547755107825e-15,
    -3.8144030724370075e-15,
    1.0420276984128802e-14,
    4.272440016711951e-14,
    -2.1015418427726643e-14,
    -4.0835511110921974e-13,
    -7.198551776245908e-13,
    2.0356285441470896e-12,
    1.4125807436613782e-11,
    3.2526035830154884e-11,
    -1.8974958123505413e-11,
    -5.589743462196584e-10,
    -3.835380385964237e-09,
    -2.6314688468895196e-08,
    -2.512236237870209e-07,
    -3.882564808877691e-06,
    -0.00011058893876262371,
    -0.009761097491361469,
    0.7785762350182801,
)

_MK0_A = (
    1.374465435613523e-16,
    4.25981614279661e-14,
    1.0349695257633842e-11,
    1.904516377220209e-09,
    2.5347910790261494e-07,
    2.286212103119452e-05,
    0.001264615411446926,
    0.0359799365153615,
    0.3442898999246285,
    -0.5353273932339028,
)

_MK0_B = (
    5.300433772686263e-18,
    -1.6475804301524212e-17,
    5.2103915050390274e-17,
    -1.678231096805412e-16,
    5.512055978524319e-16,
    -1.848593377343779e-15,
    6.3400764774050706e-15,
    -2.2275133269916698e-14,
    8.032890775363575e-14,
    -2.9800969231727303e-13,
    1.140340588208475e-12,
    -4.514597883373944e-12,
    1.8559491149547177e-11,
    -7.957489244477107e-11,
    3.577397281400301e-10,
    -1.69753450938906e-09,
    8.574034017414225e-09,
    -4.660489897687948e-08,
    2.766813639445015e-07,
    -1.8317555227191195e-06,
    1.39498137188765e-05,
    -0.00012849549581627802,
    0.0015698838857300533,
    -0.0314481013119645,
    2.4403030820659555,
)

_MK1_A = (
    -7.023863479386288e-18,
    -2.427449850519366e-15,
    -6.666901694199329e-13,
    -1.4114883926335278e-10,
    -2.213387630734726e-08,
    -2.4334061415659684e-06,
    -0.0001730288957513052,
    -0.006975723859639864,
    -0.12261118082265715,
    -0.3531559607765449,
    1.5253002273389478,
)

_MK1_B = (
    -5.756744483665017e-18,
    1.7940508731475592e-17,
    -5.689462558442859e-17,
    1.838093544366639e-16,
    -6.057047248373319e-16,
    2.038703165624334e-15,
    -7.019837090418314e-15,
    2.4771544244813043e-14,
    -8.976705182324994e-14,
    3.3484196660784293e-13,
    -1.2891739609510289e-12,
    5.13963967348173e-12,
    -2.1299678384275683e-11,
    9.218315187605006e-11,
    -4.1903547593418965e-10,
    2.015049755197033e-09,
    -1.0345762465678097e-08,
    5.7410841254500495e-08,
    -3.5019606030878126e-07,
    2.406484947837217e-06,
    -1.936197974166083e-05,
    0.00019521551847135162,
    -0.002857816859622779,
    0.10392373657681724,
    2.7206261904844427,
)

_SK0_A = _MK0_A  # the same coefficients (ATen names them twice)

_SK0_B = _MK0_B  # the same coefficients (ATen names them twice)

_SK1_A = _MK1_A  # the same coefficients (ATen names them twice)

_SK1_B = _MK1_B  # the same coefficients (ATen names them twice)

_NDTRI_P0 = (
    -59.96335010141079,
    98.00107541859997,
    -56.67628574690703,
    13.931260938727968,
    -1.2391658386738125,
)

_NDTRI_Q0 = (
    1.0,
    1.9544885833814176,
    4.676279128988815,
    86.36024213908905,
    -225.46268785411937,
    200.26021238006066,
    -82.03722561683334,
    15.90562251262117,
    -1.1833162112133,
)

_NDTRI_P1 = (
    4.0554489230596245,
    31.525109459989388,
    57.16281922464213,
    44.08050738932008,
    14.684956192885803,
    2.1866330685079025,
    -0.1402560791713545,
    -0.03504246268278482,
    -0.0008574567851546854,
)

_NDTRI_Q1 = (
    1.0,
    15.779988325646675,
    45.39076351288792,
    41.3172038254672,
    15.04253856929075,
    2.504649462083094,
    -0.14218292285478779,
    -0.03808064076915783,
    -0.0009332594808954574,
)

_NDTRI_P2 = (
    3.2377489177694603,
    6.915228890689842,
    3.9388102529247444,
    1.3330346081580755,
    0.20148538954917908,
    0.012371663481782003,
    0.00030158155350823543,
    2.6580697468673755e-06,
    6.239745391849833e-09,
)

_NDTRI_Q2 = (
    1.0,
    6.02427039364742,
    3.6798356385616087,
    1.3770209948908132,
    0.21623699359449663,
    0.013420400608854318,
    0.00032801446468212774,
    2.8924786474538068e-06,
    6.790194080099813e-09,
)

_CHEB_I0E_A = _MI0_A  # the same coefficients (ATen names them twice)

_CHEB_I0E_B = _MI0_B  # the same coefficients (ATen names them twice)

_CHEB_I1E_A = _MI1_A  # the same coefficients (ATen names them twice)

_CHEB_I1E_B = _MI1_B  # the same coefficients (ATen names them twice)

_LANCZOS_SUM_EXPG_SCALED_NUM = (
    0.006061842346248907,
    0.5098416655656676,
    19.519927882476175,
    449.9445569063168,
    6955.999602515376,
    75999.29304014542,
    601859.6171681099,
    3481712.154980646,
    14605578.087685067,
    43338889.32467614,
    86363131.2881386,
    103794043.11634454,
    56906521.913471565,
)

_LANCZOS_SUM_EXPG_SCALED_DENOM = (
    1.0,
    66.0,
    1925.0,
    32670.0,
    357423.0,
    2637558.0,
    13339535.0,
    45995730.0,
    105258076.0,
    150917976.0,
    120543840.0,
    39916800.0,
    0.0,
)

_IGAM_D = (
    (-0.3333333333333333, 0.08333333333333333, -0.014814814814814815, 0.0011574074074074073, 0.0003527336860670194, -0.0001787551440329218, 3.919263178522438e-05, -2.1854485106799924e-06, -1.85406221071516e-06, 8.296711340953087e-07, -1.7665952736826078e-07, 6.707853543401498e-09, 1.0261809784240309e-08, -4.382036018453353e-09, 9.14769958223679e-10, -2.551419399494625e-11, -5.830772132550426e-11, 2.4361948020667415e-11, -5.0276692801141755e-12, 1.1004392031956135e-13, 3.3717632624009856e-13, -1.392388722418162e-13, 2.8534893807047445e-14, -5.139111834242572e-16, -1.9752288294349442e-15),
    (-0.001851851851851852, -0.003472222222222222, 0.0026455026455026454, -0.0009902263374485596, 0.00020576131687242798, -4.018775720164609e-07, -1.8098550334489977e-05, 7.64916091608111e-06, -1.6120900894563446e-06, 4.647127802807434e-09, 1.378633446915721e-07, -5.752545603517705e-08, 1.1951628599778148e-08, -1.7543241719747647e-11, -1.0091543710600413e-09, 4.162792991842583e-10, -8.56390702649298e-11, 6.067215101604758e-14, 7.1624989648114856e-12, -2.933186643771437e-12, 5.996696365683689e-13, -2.1671786527323313e-16, -4.978339972369262e-14, 2.0291628823713425e-14, -4.13125571381061e-15),
    (0.004133597883597883, -0.0026813271604938273, 0.0007716049382716049, 2.0093878600823047e-06, -0.00010736653226365161, 5.2923448829120125e-05, -1.2760635188618728e-05, 3.423578734096138e-08, 1.3721957309062932e-06, -6.298992138380055e-07, 1.4280614206064242e-07, -2.0477098421990866e-10, -1.409252991086752e-08, 6.228974084922022e-09, -1.3670488396617112e-09, 9.428356159014678e-13, 1.2872252400089318e-10, -5.5645956134363323e-11, 1.197593554636698e-11, -4.1689782251838634e-15, -1.0940640427884595e-12, 4.662239946390136e-13, -9.905105763906907e-14, 1.8931876768373515e-17, 8.859221872591127e-15),
    (0.0006494341563786008, 0.00022947209362139917, -0.0004691894943952557, 0.00026772063206283885, -7.561801671883977e-05, -2.396505113867297e-07, 1.1082654115347302e-05, -5.6749528269915965e-06, 1.4230900732435883e-06, -2.7861080291528143e-11, -1.6958404091930278e-07, 8.099464905388083e-08, -1.9111168485973655e-08, 2.3928620439808118e-12, 2.0620131815488797e-09, -9.460496661855133e-10, 2.1541049775774907e-10, -1.388823336813903e-14, -2.1894761681963938e-11, 9.790998951171684e-12, -2.178219188018096e-12, 6.208819573407901e-17, 2.126978363279737e-13, -9.344688791517433e-14, 2.045367122678285e-14),
    (-0.0008618882909167117, 0.0007840392217200666, -0.0002990724803031902, -1.4638452578843418e-06, 6.641498215465122e-05, -3.968365047179435e-05, 1.1375726970678419e-05, 2.507497226237533e-10, -1.6954149536558305e-06, 8.907507532205309e-07, -2.292934834000805e-07, 2.956794137544049e-11, 2.8865829742708783e-08, -1.4189739437803219e-08, 3.4463580499464896e-09, -2.3024517174528067e-13, -3.9409233028046403e-10, 1.86023389685045e-10, -4.356323005056618e-11, 1.278600101629623e-15, 4.67927502665792e-12, -2.149246470613483e-12, 4.908815614809652e-13, -6.33859148489156e-18, -5.045332069080094e-14),
    (-0.00033679855336635813, -6.972813758365858e-05, 0.0002772753244959392, -0.00019932570516188847, 6.797780477937208e-05, 1.419062920643967e-07, -1.3594048189768693e-05, 8.018470256334202e-06, -2.291481176508095e-06, -3.252473551298454e-10, 3.4652846491085265e-07, -1.8447187191171344e-07, 4.8240967037894184e-08, -1.7989466721743514e-14, -6.306194500013523e-09, 3.162417628774568e-09, -7.840924253697429e-10, 5.192679165254041e-15, 9.358944242306784e-11, -4.513426216163278e-11, 1.0799129993116828e-11, -3.661886712685252e-17, -1.210902069055155e-12, 5.680743584990564e-13, -1.3249659916340829e-13),
    (0.0005313079364639922, -0.0005921664373536939, 0.0002708782096718045, 7.902353232660328e-07, -8.153969367561969e-05, 5.61168275310625e-05, -1.8329116582843375e-05, -3.0796134506033047e-09, 3.465155368803609e-06, -2.0291327396058603e-06, 5.788792863149004e-07, 2.338630673826657e-13, -8.828600746330484e-08, 4.7435958880408125e-08, -1.2545415020710382e-08, 8.649648858010293e-14, 1.6846058979264062e-09, -8.575492823577594e-10, 2.1598224929232125e-10, -7.613230520476153e-16, -2.6639822008536144e-11, 1.3065700536611057e-11, -3.1799163902367977e-12, 4.710976121367431e-18, 3.6902800842763465e-13),
    (0.00034436760689237765, 5.171790908260592e-05, -0.00033493161081142234, 0.0002812695154763237, -0.00010976582244684731, -1.2741009095484485e-07, 2.7744451511563645e-05, -1.8263488805711332e-05, 5.7876949497350525e-06, 4.93875893393627e-10, -1.0595367014026043e-06, 6.166714376110408e-07, -1.7562973359060463e-07, -1.297447328701544e-12, 2.695423606288966e-08, -1.4578352908731272e-08, 3.887645959386175e-09, -3.881002251019412e-17, -5.327994173877286e-10, 2.7437977643314844e-10, -6.995796092070568e-11, 2.589986387486848e-17, 8.856689099669639e-12, -4.403168815871311e-12, 1.0865561947091654e-12),
    (-0.0006526239185953094, 0.0008394987206720873, -0.000438297098541721, -6.969091458420552e-07, 0.00016644846642067547, -0.00012783517679769218, 4.629953263691304e-05, 4.557909867922708e-09, -1.0595271125805195e-05, 6.783342904865167e-06, -2.1075476666258803e-06, -1.7213731432817144e-11, 3.773587741611098e-07, -2.1867506700122867e-07, 6.220228804018927e-08, 6.597703826733e-16, -9.590386497425686e-09, 5.213214492280807e-09, -1.3991589583935709e-09, 5.382058999060575e-16, 1.9484714275467745e-10, -1.0127287556389682e-10, 2.6077347197254926e-11, -5.090418699993299e-18, -3.3721464474854593e-12),
    (-0.0005967612901927463, -7.204895416020011e-05, 0.0006782308837667328, -0.0006401475260262758, 0.00027750107634328704, 1.819700838046515e-07, -8.479507117068503e-05, 6.105192082501531e-05, -2.1073920183404862e-05, -8.858589014125599e-10, 4.5284535953805374e-06, -2.8427815022504407e-06, 8.708234177864641e-07, 3.6886101871706966e-12, -1.534469519070206e-07, 8.862466778790695e-08, -2.5184812301826817e-08, -1.0225912098215092e-14, 3.896947075815478e-09, -2.1267304792235634e-09, 5.737013552805138e-10, -1.887749850169741e-19, -8.093153869465787e-11, 4.23827232834492e-11, -1.1002224534207727e-11),
    (0.0013324454494800656, -0.0019144384985654776, 0.0011089369134596636, 9.9324041226423e-07, -0.0005087450129309319, 0.00042735056665392886, -0.000168588537679108, -8.1301893922785e-09, 4.5284402370562144e-05, -3.127053674781734e-05, 1.044986828530338e-05, 4.8435226265680926e-11, -2.148256587345626e-06, 1.329369701097492e-06, -4.029569309210103e-07, -1.756787766632329e-13, 7.014504316366825e-08, -4.040787734999483e-08, 1.1474026743371962e-08, 3.9642746853563326e-18, -1.7804938269892715e-09, 9.748026254873165e-10, -2.6405338676507616e-10, 5.794875163403742e-18, 3.764774955354384e-11),
    (0.001579727660730835, 0.00016251626278391583, -0.0020633421035543276, 0.00213896861856891, -0.0010108559391263003, -3.99127055299192e-07, 0.0003623502508476469, -0.00028143901463712157, 0.00010449513336495887, 2.12114184918303e-09, -2.5779417251947842e-05, 1.7281818956040464e-05, -5.641377387290428e-06, -1.1024320105776174e-11, 1.1223224418895176e-06, -6.869339637952674e-07, 2.0653236975414888e-07, 4.6714772409838506e-14, -3.5609886164949055e-08, 2.0470855345905963e-08, -5.809173863328336e-09, -1.332821287582869e-16, 9.035460439133513e-10, -4.959878251733084e-10, 1.3481607129399748e-10),
    (-0.004072512119514016, 0.00640336283380807, -0.004041016108167662, -2.183732802866233e-06, 0.002174044180125464, -0.001970044051841889, 0.0008359546974796246, 1.9445447567109655e-08, -0.000257793871204217, 0.00019009987368139304, -6.769649993743896e-05, -1.4440629666426571e-10, 1.5712512518742267e-05, -1.0304008744776892e-05, 3.304517767401387e-06, 7.982976024232571e-13, -6.4097794149313e-07, 3.8894624761300054e-07, -1.161834764494887e-07, -2.816808630596451e-15, 1.9878012911297094e-08, -1.1407719956357511e-08, 3.2355857064185554e-09, 4.175946829345594e-20, -5.042311271810582e-10),
    (-0.0059475779383993, -0.0005401647678926045, 0.00879104135507679, -0.009857631558785612, 0.005013469503102154, 1.2807521786221875e-06, -0.0020626019342754685, 0.0017109128573523059, -0.000676953127141338, -6.901154567656214e-09, 0.00018855128143995903, -0.0001339521566349197, 4.626318303352804e-05, 4.003423061332135e-11, -1.0255652921494033e-05, 6.612086372797651e-06, -2.0913022027253007e-06, -2.0951775649603836e-13, 3.975602904199325e-07, -2.395621197881589e-07, 7.118288338214586e-08, 8.925574873053455e-16, -1.2101547235064675e-08, 6.935061824833439e-09, -1.96614644538561e-09),
    (0.01740202778752271, -0.029527880945699123, 0.020045875571402798, 7.0289515966903405e-06, -0.012375421071343148, 0.011976293444235253, -0.0054156038466518525, -6.329089339641862e-08, 0.0018855118129005065, -0.001473473274825001, 0.0005551581009770838, 5.240683441255066e-10, -0.00014357913535784837, 9.91812932249433e-05, -3.346083474947831e-05, -3.575583729109899e-12, 7.1560851960630075e-06, -4.551680262815553e-06, 1.4236576649271474e-06, 1.8803149082089665e-14, -2.662340389892921e-07, 1.5950642189595716e-07, -4.71875146738411e-08, -6.510787295875518e-17, 7.979509102674624e-09),
    (0.03024912416090589, 0.0024817436002649977, -0.049939134373457025, 0.05991564300930787, -0.03248320760162339, -5.721296865210344e-06, 0.015085251778569354, -0.013261324005088445, 0.0055515262632426145, 3.026318225703001e-08, -0.0017229548406756724, 0.0012893570099929638, -0.00046845138348319875, -1.830259937893045e-10, 0.00011449739014822654, -7.737856522124447e-05, 2.5625836246985202e-05, 1.0766165333192815e-12, -5.324680928242262e-06, 3.349634863064464e-06, -1.0381253128684019e-06, -5.608909920621128e-15, 1.9150821930676592e-07, -1.1418365800203487e-07, 3.3654425209171787e-08),
    (-0.09905102088015905, 0.17954011706123485, -0.12989606383463778, -3.1478872752284355e-05, 0.09051063527684813, -0.0928288244111844, 0.04441211283987781, 2.7779236316835886e-07, -0.017229543805449696, 0.014182925050891573, -0.005621416163374734, -2.39598509186381e-09, 0.0016029634366079909, -0.0011606784674435774, 0.00041001337768153875, 1.836580075409066e-11, -9.58442565636559e-05, 6.364306233776471e-05, -2.076250624489065e-05, -1.1806020912804483e-13, 4.213180823912065e-06, -2.626224133701247e-06, 8.077062049493066e-07, 6.012591212363273e-16, -1.472973737401884e-07),
    (-0.19994542198219728, -0.015056113040026424, 0.36470239469348487, -0.4643519231173355, 0.26640934719197895, 3.403826602714719e-05, -0.13784338709329624, 0.1276467178337056, -0.056213828755200985, -1.753150885483011e-07, 0.019235592956768112, -0.015088821281095314, 0.005740185445135012, 1.0622382710310225e-09, -0.0015335082692563998, 0.0010819320643228215, -0.0003737251019394566, -6.617090972903199e-12, 8.426361738090962e-05, -5.515070682748348e-05, 1.776953644834807e-05, 3.882792321020553e-14, -3.53513697488768e-06, 2.186583213004527e-06, -6.68128494476256e-07),
    (0.7243860850402943, -1.3918010932653375, 1.0654143352413967, 0.0001876173868950258, -0.827055011761527, 0.8935243334782842, -0.44971003995291337, -1.6107401567546651e-06, 0.1923559016527109, -0.1659770216004261, 0.06888222268181433, 1.3910091724608687e-08, -0.02146911561508663, 0.016228980898865892, -0.005979601617258426, -1.1287469112826745e-10, 0.0015167451119784856, -0.00104786342935539, 0.0003553907288912642, 8.170432211180152e-13, -7.77730134424524e-05, 5.029141389700772e-05, -1.6035083867000518e-05, 1.2469354315487606e-14, 3.1369106244517616e-06),
    (1.6668949727276812, 0.1165462765994632, -3.3288393225018904, 4.469232548286404, -2.6977693045875806, -0.0002600667859891061, 1.5389017615694538, -1.4937962361134611, 0.6888196463323315, 1.3077482004552384e-06, -0.2576296332559629, 0.21097676102125448, -0.08371440835921988, -7.792042888135476e-09, 0.0242679230648336, -0.017813678334552312, 0.006397033038890006, 4.943080709048052e-11, -0.0015554602758465635, 0.0010561196919903215, -0.000352771844604729, 9.300233464502246e-14, 7.528585502655717e-05, -4.818651556915635e-05, 1.5227271505597605e-05),
    (-6.618829886137293, 13.397985455142589, -10.789350606845145, -0.0014352254537875018, 9.23336945961898, -10.456552819547769, 5.510552602903347, 1.2024439690716742e-05, -2.5762961164755818, 2.320744274538718, -1.0045728797216285, -1.0207833290021913e-07, 0.3397509217116947, -0.2672051745075747, 0.10235252851562705, 8.432973048487163e-10, -0.027998284958442594, 0.020066274144976814, -0.007055436891508624, 1.9402238183698188e-12, 0.0016562888105449611, -0.0011082898580743682, 0.0003654545161310169, -5.129003202697179e-11, -7.634010369686903e-05),
    (-17.112706061976095, -1.1208044642899115, 37.131966511885445, -52.29827102534896, 33.058589696624615, 0.002479129897620022, -20.61089403411526, 20.88672775145582, -10.045703956517752, -1.2238783449063012e-05, 4.077013427422114, -3.473667358470195, 1.4329352617312006, 7.135991441187971e-08, -0.4479725715911561, 0.3411266608064446, -0.12699786326594922, -2.895367726908153e-10, 0.03312577627825986, -0.023274087021036102, 0.008039999350364889, -1.177805216235265e-09, -0.001832162489107167, 0.0012108282933588664, -0.0003947994124682252),
    (73.89033153567425, -156.80141270402274, 132.2177542759164, 0.013692876877324546, -123.66496885920151, 146.2068939106273, -80.36558772486535, -0.00011259851148881298, 40.77013219617994, -38.21034001327303, 17.19522294277362, 9.351970795516835e-07, -6.271615990774704, 5.116899907185264, -2.0319658112299095, -4.950721558276154e-09, 0.596263972943326, -0.44220765337238094, 0.16079998700166273, -2.4733786203223403e-08, -0.040307574759979765, 0.02784905074709787, -0.009475185899205422, 6.419922235909132e-06, 0.002125018077469946),
    (212.1683709838252, 13.107863022633868, -496.9828593287175, 731.215952669692, -482.1382172089085, -0.028817248692894887, 326.167203029471, -343.8934028008712, 171.95193870816232, 0.00014038077378096157, -75.2594195897599, 66.51969984520935, -28.447519748152462, -7.613702615875392e-07, 9.540223710530437, -7.517530111331138, 2.894399756887196, -4.66121949995382e-07, -0.8061514959879409, 0.5848300657063102, -0.20845408972964957, 0.00014765818959305816, 0.05100043386375302, -0.03306625214188366, 0.015109265210467774),
    (-989.5964309832236, 2192.555536090523, -1928.3586782723355, -0.15925738122215252, 1956.9985945919857, -2407.2514765081555, 1375.6149959336497, 0.0012920735237496668, -752.5941715948055, 731.7166874220871, -341.37023466220063, -9.985739026060805e-06, 133.56313181291574, -112.76295161252794, 46.31039609820446, -7.923738713361476e-06, -14.510726927018647, 11.111771248100563, -4.169081794527089, 0.0031008219800117806, 1.1220095449981469, -0.7605237992614992, 0.36262236505085255, 0.2216867741940747, 0.48683443692930506),
)

_ERFCX_Y100 = (
    (0.0007087803245410644, 0.000712340910470263, 3.5779077297597742e-06, 1.7403143962587938e-08, 8.171066004730779e-11, 3.688502236043496e-13, 1.5917038551111112e-15),
    (0.0021479143208285143, 0.0007268640236737999, 3.6843175430938994e-06, 1.80718412721492e-08, 8.549644929604033e-11, 3.885203751853429e-13, 1.6868473576888889e-15),
    (0.0036165255935630175, 0.0007418209232355551, 3.794831995752824e-06, 1.8771627021793087e-08, 8.948471512241509e-11, 4.093585851777244e-13, 1.787206146488889e-15),
    (0.005115498386003198, 0.0007572284073479166, 3.90964257267357e-06, 1.950416870430047e-08, 9.3687503063179e-11, 4.3143925959079665e-13, 1.8939926435555556e-15),
    (0.006645751317267305, 0.0007731040605444745, 4.028951058939944e-06, 2.0271233238288382e-08, 9.81176313217091e-11, 4.548420740601775e-13, 2.007635221333333e-15),
    (0.008208238997024121, 0.0007894662961188171, 4.152970155262265e-06, 2.1074693344544657e-08, 1.0278874108587318e-10, 4.796520139061334e-13, 2.1285907413333335e-15),
    (0.009803953727535219, 0.0008063344010834284, 4.281924132973699e-06, 2.1916534346907168e-08, 1.0771535136565471e-10, 5.059597262369282e-13, 2.2573462684444446e-15),
    (0.011433927298290302, 0.0008237285838319657, 4.416049531176544e-06, 2.2798861426211987e-08, 1.129129174587924e-10, 5.338618936581688e-13, 2.3944209546666666e-15),
    (0.013099232878814654, 0.0008416700246790696, 4.555595898845751e-06, 2.3723907357214174e-08, 1.1839789326602696e-10, 5.634616306755024e-13, 2.5403679644444446e-15),
    (0.014800987015587536, 0.0008601809294634594, 4.700826584881687e-06, 2.4694040760197315e-08, 1.2418779768752298e-10, 5.948689037032026e-13, 2.695776456888889e-15),
    (0.01654035173939407, 0.0008792845864124146, 4.852019579300175e-06, 2.571177490088171e-08, 1.3030128534230821e-10, 6.282009758687478e-13, 2.8612737351111112e-15),
    (0.018318536789842393, 0.0008990054264789172, 5.009468408955337e-06, 2.677977707421807e-08, 1.3675822186304616e-10, 6.635828774535271e-13, 3.0375273884444443e-15),
    (0.020136801964214277, 0.0009193690873767368, 5.1734830914104276e-06, 2.7900878609710433e-08, 1.435797640280904e-10, 7.011479031104373e-13, 3.2252476e-15),
    (0.021996459598282742, 0.0009404024815536678, 5.344391150804117e-06, 2.9078085538049375e-08, 1.507884450032973e-10, 7.41038136474992e-13, 3.425189232e-15),
    (0.02389887718722632, 0.0009621338683590018, 5.5225386998049015e-06, 3.0314589961047687e-08, 1.5840826497296334e-10, 7.834050047241445e-13, 3.6381553564444445e-15),
    (0.025845480155298518, 0.0009845929306782012, 5.708291592005185e-06, 3.161378216916483e-08, 1.664647874552963e-10, 8.28409859287854e-13, 3.864997576888889e-15),
    (0.027837754783474698, 0.0010078108563256892, 5.9020366493792216e-06, 3.297926355324652e-08, 1.7498524159268457e-10, 8.762245912484253e-13, 4.106620648888889e-15),
    (0.029877251304899308, 0.001031820424505735, 6.104182969716206e-06, 3.441486035954272e-08, 1.839986307293409e-10, 9.270322736636504e-13, 4.3639844053333335e-15),
    (0.03196558717859645, 0.0010566560976716574, 6.315163319241458e-06, 3.592463833952192e-08, 1.9353584758781173e-10, 9.810278385988926e-13, 4.6381060817777776e-15),
    (0.03410445055258834, 0.0010823541191350532, 6.535435615955393e-06, 3.7512918348533524e-08, 2.0362979635817883e-10, 1.0384187833037281e-12, 4.930062526222222e-15),
    (0.036295603928292425, 0.0011089526167995269, 6.765484509551836e-06, 3.918429294991359e-08, 2.1431552202133775e-10, 1.0994259106646732e-12, 5.240994910222222e-15),
    (0.03854088803884051, 0.001136491713417542, 7.005823064124631e-06, 4.0943644083718584e-08, 2.2563034723692883e-10, 1.1642841011361993e-12, 5.572109287111111e-15),
    (0.04084222595478596, 0.0011650136437945675, 7.2569945502343e-06, 4.279616186185504e-08, 2.3761401711005023e-10, 1.2332431172381557e-12, 5.924680236444444e-15),
    (0.04320162743154022, 0.0011945628793917271, 7.51957435328492e-06, 4.474736455396099e-08, 2.503088521647295e-10, 1.3065684400300477e-12, 6.300053285333334e-15),
    (0.04562119351381047, 0.001225186260806753, 7.794172005555192e-06, 4.680311983095446e-08, 2.6375990983978426e-10, 1.384542137097712e-12, 6.6996477404444446e-15),
    (0.048103121413299865, 0.0012569331386432195, 8.081433349636768e-06, 4.896966733568202e-08, 2.7801515481905746e-10, 1.4674637611609885e-12, 7.124958935111111e-15),
    (0.05064970967698334, 0.0012898555233099055, 8.38204284145688e-06, 5.125364265255184e-08, 2.9312563849675507e-10, 1.5556512782814827e-12, 7.577560782222223e-15),
    (0.053263363664388864, 0.0013240082443256975, 8.696726001500767e-06, 5.36621027503968e-08, 3.09145687866348e-10, 1.6494420240828494e-12, 8.059107964444444e-15),
    (0.05594660135350001, 0.001359449119740819, 9.026252023301638e-06, 5.6202552975056696e-08, 3.261331041050314e-10, 1.7491936862246368e-12, 8.571338168888888e-15),
    (0.058702059496154084, 0.0013962391363223647, 9.371436548731279e-06, 5.8882975670265285e-08, 3.4414937110591756e-10, 1.855285310975186e-12, 9.11607367111111e-15),
    (0.061532500145144775, 0.0014344426411912014, 9.733144620101681e-06, 6.171186050734718e-08, 3.63259874182953e-10, 1.9681183310134517e-12, 9.69522384e-15),
    (0.06444081757665329, 0.0014741275456383132, 1.0112293819576438e-05, 6.469823660593325e-08, 3.8353412915303665e-10, 2.088117611438512e-12, 1.031078448e-14),
    (0.06743004563313039, 0.001515365541891654, 1.0509857606888329e-05, 6.785170652936334e-08, 4.050460219481114e-10, 2.2157325110542536e-12, 1.0964842115555555e-14),
    (0.07050336551333886, 0.001558232333649571, 1.092686886686523e-05, 7.118248223961351e-08, 4.2787405890153386e-10, 2.351437952227442e-12, 1.1659571751111111e-14),
    (0.0736641140379446, 0.001602807881243882, 1.1364423678778208e-05, 7.470142309742318e-08, 4.521016277747649e-10, 2.495735500408857e-12, 1.2397238257777777e-14),
    (0.07691579242081956, 0.0016491766623447889, 1.1823685320041301e-05, 7.842007599378154e-08, 4.778172695691648e-10, 2.6491544403815725e-12, 1.3180196462222222e-14),
    (0.08026207557809462, 0.0016974279491709504, 1.2305888517309891e-05, 8.235071769897904e-08, 5.051149610985711e-10, 2.81225284976269e-12, 1.4010889635555555e-14),
    (0.08370682200898036, 0.0017476561032212657, 1.2812343958540764e-05, 8.650639951503644e-08, 5.340944082386946e-10, 2.9856186620887555e-12, 1.489185159111111e-14),
    (0.08725408428446171, 0.0017999608886001962, 1.3344443080089493e-05, 9.0900994316429e-08, 5.648613497261646e-10, 3.169870708003396e-12, 1.5825697795555556e-14),
    (0.09090812018217274, 0.00185444780506577, 1.390366314342612e-05, 9.554924606254991e-08, 5.975278712524205e-10, 3.36565973660991e-12, 1.6815130613333334e-14),
    (0.09467340450807549, 0.0019112284419887304, 1.4491572616545005e-05, 1.0046682186333614e-07, 6.3221272959791e-10, 3.573669397558913e-12, 1.786293159111111e-14),
    (0.09855464164800445, 0.0019704208544725622, 1.5109836875625445e-05, 1.0567036667675984e-07, 6.690416864001935e-10, 3.794617185082434e-12, 1.897195904e-14),
    (0.1025567788947009, 0.0020321499629472857, 1.576022424296218e-05, 1.1117756071353507e-07, 7.081478511009766e-10, 4.029255327663256e-12, 2.0145143075555556e-14),
    (0.10668502059865094, 0.002096547977614873, 1.6444612377624982e-05, 1.1700717962026153e-07, 7.496720325093842e-10, 4.2783716186085925e-12, 2.138547936e-14),
    (0.11094484319386444, 0.002163754849190817, 1.7164995035719656e-05, 1.2317915750735938e-07, 7.937630983149963e-10, 4.542790176310636e-12, 2.2696025653333333e-14),
    (0.11534201115268805, 0.002233918747454642, 1.7923489217504226e-05, 1.2971465288245997e-07, 8.405783418038907e-10, 4.8233721206418025e-12, 2.4079890062222222e-14),
    (0.11988259392684095, 0.002307196569191869, 1.8722342718958937e-05, 1.3663611754337958e-07, 8.902838548849328e-10, 5.121016156922585e-12, 2.554022711111111e-14),
    (0.12457298393509812, 0.0023837544771809576, 1.956394210571161e-05, 1.439673684773947e-07, 9.430549064645925e-10, 5.436659058313422e-12, 2.708022592e-14),
    (0.12941991566142438, 0.002463768471950886, 2.045082112747588e-05, 1.5173366280523906e-07, 9.990763250638903e-10, 5.771276031135163e-12, 2.8703099555555555e-14),
    (0.13443048593088697, 0.0025474249981080823, 2.1385669591362916e-05, 1.5996177579900442e-07, 1.0585428844575133e-09, 6.125880953678788e-12, 3.041208014222222e-14),
    (0.13961217543434562, 0.0026349215871051762, 2.2371342712572568e-05, 1.6868008199296823e-07, 1.1216596910444997e-09, 6.501526475309089e-12, 3.221039450666667e-14),
    (0.144972871576738, 0.002726467538398244, 2.341087096105095e-05, 1.7791863939526378e-07, 1.1886425714330958e-09, 6.8993039665054284e-12, 3.4101266222222225e-14),
    (0.15052089272774619, 0.0028222846410136237, 2.4507470422713398e-05, 1.8770927679626137e-07, 1.259718458758337e-09, 7.320343304922983e-12, 3.6087889048888887e-14),
    (0.1562650139577461, 0.0029226079376196627, 2.566455369376845e-05, 1.9808568415654462e-07, 1.3351257759815557e-09, 7.765812489104676e-12, 3.817342003555556e-14),
    (0.16221449434620738, 0.0030276865332726477, 2.6885741326534563e-05, 2.0908350604346383e-07, 1.415114814424073e-09, 8.236917066597432e-12, 4.036095745777778e-14),
    (0.1683791059541213, 0.0031377844510793083, 2.8174873844911173e-05, 2.2074043807045782e-07, 1.499948105599609e-09, 8.734899366193081e-12, 4.265352897777778e-14),
    (0.1747691645565937, 0.0032531815370903066, 2.9536024347344365e-05, 2.3309632627767074e-07, 1.5899007843582445e-09, 9.261037523542736e-12, 4.5054073102222224e-14),
    (0.18139556223643702, 0.0033741744168097, 3.09735117147095e-05, 2.461932693759229e-07, 1.6852609412267751e-09, 9.81664429428549e-12, 4.756541809777778e-14),
    (0.18826980194443665, 0.0035010775057740316, 3.249191444001427e-05, 2.600757237588632e-07, 1.7863299617388377e-09, 1.0403065638343878e-11, 5.019026583111111e-14),
    (0.19540403413693969, 0.0036342240767211326, 3.4096085096200906e-05, 2.7479061117017636e-07, 1.8934228504790033e-09, 1.1021679075323599e-11, 5.293117173333333e-14),
    (0.20281109560651886, 0.00377396738593236, 3.579116545759241e-05, 2.9038742889416174e-07, 2.0068685374849e-09, 1.1673891799578381e-11, 5.5790523093333335e-14),
    (0.21050455062669335, 0.003920681861392565, 3.7582602289680105e-05, 3.0691836231886877e-07, 2.1270101645763676e-09, 1.2361138551062899e-11, 5.877052016e-14),
    (0.21849873453703333, 0.004074764355468959, 3.947616382098671e-05, 3.244383997013992e-07, 2.254205349151868e-09, 1.3084879235290859e-11, 6.187315326222222e-14),
    (0.2268087999004323, 0.004236635464862852, 4.1477956909656896e-05, 3.430054489450281e-07, 2.3888264229264067e-09, 1.3846596292818514e-11, 6.510018375111112e-14),
    (0.23545076536988704, 0.004406740920636517, 4.35944449162247e-05, 3.6268045617760415e-07, 2.53126064308532e-09, 1.4647791812837902e-11, 6.845312263111111e-14),
    (0.24444156740777434, 0.004585553051160578, 4.5832466292683086e-05, 3.835275259003303e-07, 2.6819103733055602e-09, 1.5489984390884758e-11, 7.193320636444444e-14),
    (0.25379911500634267, 0.004773572320865003, 4.8199253896534185e-05, 4.0561404245564733e-07, 2.8411932320871164e-09, 1.637470573645832e-11, 7.554137982222222e-14),
    (0.26354234756393613, 0.0049713289477083785, 5.070245503693037e-05, 4.2901079254268185e-07, 3.009542205890048e-09, 1.730349702534734e-11, 7.927827336888888e-14),
    (0.27369129607732345, 0.005179384602305264, 5.33501522583266e-05, 4.537920884886502e-07, 3.187405724581438e-09, 1.827790501024511e-11, 8.314418236444444e-14),
    (0.28426714781640317, 0.005398334191669514, 5.615088486525581e-05, 4.800358919649474e-07, 3.3752476967570798e-09, 1.9299477888083468e-11, 8.713904913777777e-14),
    (0.2952923146534852, 0.0056288077305420795, 5.911367118991331e-05, 5.078239378174484e-07, 3.5735475025851714e-09, 2.036976093701707e-11, 9.126244261333333e-14),
    (0.3067905052252884, 0.00587147230327454, 6.224803160219768e-05, 5.372418576620094e-07, 3.782799941896024e-09, 2.149029193044454e-11, 9.551353918222223e-14),
    (0.3187868011117332, 0.00612703411923391, 6.556401225970764e-05, 5.683793028783774e-07, 4.003515135339238e-09, 2.2662596341239295e-11, 9.989110976e-14),
    (0.33130773722152623, 0.006396240664679808, 6.90722095929424e-05, 6.013300666188594e-07, 4.236218376588347e-09, 2.3888182347073697e-11, 1.0439349811555555e-13),
    (0.34438138658041334, 0.0066798829540414, 7.278379551860356e-05, 6.36192204432288e-07, 4.481449933651445e-09, 2.5168535651285476e-11, 1.0901861383111111e-13),
    (0.35803744972380175, 0.006978797883488269, 7.671054337145482e-05, 6.730681530891739e-07, 4.739764797584523e-09, 2.650511414114305e-11, 1.1376390933333332e-13),
    (0.37230734890119727, 0.007293870689646138, 8.086485454267072e-05, 7.120648471806269e-07, 5.0117323769745884e-09, 2.7899342394100073e-11, 1.1862637614222222e-13),
    (0.3872243273055545, 0.00762603751625498, 8.525978581000461e-05, 7.532938330517133e-07, 5.297936136838812e-09, 2.935260605416409e-11, 1.2360253370666666e-13),
    (0.4028235535461694, 0.007976288091502973, 8.990907734243825e-05, 7.968713796195619e-07, 5.5989731807360405e-09, 3.0866246101464866e-11, 1.2868841946666668e-13),
    (0.4191422315891379, 0.008345668518695046, 9.482718135925016e-05, 8.429185856178314e-07, 5.915453775108349e-09, 3.244155303434747e-11, 1.338795794311111e-13),
    (0.43621971639463786, 0.00873528418282895, 0.000100029291420668, 8.915614828021988e-07, 6.24800081507886e-09, 3.407976098345888e-11, 1.3917107176888888e-13),
    (0.4540976354853433, 0.009146302775554824, 0.00010553137232446167, 9.429311346463863e-07, 6.597249231221996e-09, 3.5782041795476564e-11, 1.4455745872e-13),
    (0.4728200166851233, 0.009579957440886046, 0.00011135019058000067, 9.971637300550903e-07, 6.963845336995697e-09, 3.7549499088161346e-11, 1.500328071288889e-13),
    (0.4924334222717984, 0.010037550043909497, 0.00011750334542845235, 1.0544006716188967e-06, 7.348446116824222e-09, 3.938316232643575e-11, 1.5559069118222223e-13),
    (0.5129870897920926, 0.010520454564612427, 0.00012400930037494997, 1.1147886579371265e-06, 7.75171845505687e-09, 4.1283980931872625e-11, 1.612241968e-13),
    (0.5345330797910137, 0.011030120618800727, 0.0001308874151957227, 1.1784797595374515e-06, 8.174338306304482e-09, 4.3252818449517084e-11, 1.669259264e-13),
    (0.557126430711693, 0.011568077107929736, 0.00013815797838036652, 1.2456314879260905e-06, 8.616989807896932e-09, 4.529044681153965e-11, 1.7268801084444443e-13),
    (0.5808253212251933, 0.012135935999503878, 0.0001458422399666584, 1.316406857309571e-06, 9.080364335510602e-09, 4.739754071312462e-11, 1.785021160888889e-13),
    (0.6056912402529337, 0.01273539623952555, 0.00015396244472258864, 1.3909744385382817e-06, 9.565159503230623e-09, 4.957467212766904e-11, 1.8435945564444444e-13),
    (0.6317891649471572, 0.013368247798287032, 0.00016254186562762076, 1.4695084048334055e-06, 1.0072078109604152e-08, 5.182230499568071e-11, 1.9025081422222223e-13),
    (0.6591877468972532, 0.014036375850601992, 0.00017160483760259707, 1.5521885688723188e-06, 1.060182703153528e-08, 5.414079010583752e-11, 1.9616655146666667e-13),
    (0.6879595068317443, 0.014741765091365868, 0.00018117679143520433, 1.6392004108230584e-06, 1.1155116068018043e-08, 5.653036019492569e-11, 2.0209663662222222e-13),
    (0.7181810380872997, 0.015486504187117112, 0.00019128428784550924, 1.7307350969359975e-06, 1.1732656736113608e-08, 5.899112528756384e-11, 2.0803065333333334e-13),
    (0.7499332191172625, 0.016272790364044783, 0.00020195505163377912, 1.8269894883203348e-06, 1.2335161021630225e-08, 6.152306831216908e-11, 2.1395783431111112e-13),
    (0.7833014353128349, 0.01710293413265243, 0.00021321800585063328, 1.9281661395543912e-06, 1.2963340087354342e-08, 6.412604099806635e-11, 2.1986708942222223e-13),
    (0.8183758104102381, 0.017979364149044223, 0.0002251033059275313, 2.0344732868018175e-06, 1.361790294183995e-08, 6.679976008397248e-11, 2.257470126222222e-13),
    (0.8552514477568512, 0.01890463221254756, 0.00023764237370371255, 2.146124825130639e-06, 1.4299555071870523e-08, 6.954380386469418e-11, 2.3158593688888887e-13),
    (0.8940286817084994, 0.0198814183991272, 0.00025086793128395994, 2.2633402747585233e-06, 1.500899704211653e-08, 7.235760907504394e-11, 2.3737194737777777e-13),
    (0.9348133394287079, 0.02091253632978037, 0.0002648140346599848, 2.3863447359754924e-06, 1.5746923065472183e-08, 7.524046814172015e-11, 2.4309291271111114e-13),
    (0.9777170133588503, 0.02200093857283048, 0.0002795161070268238, 2.5153688325245316e-06, 1.651401954782282e-08, 7.819152682936823e-11, 2.4873652355555557e-13),
)

