//! Bit-exact reproduction of the element order produced by PyTorch's CPU
//! `torch.topk`, including the order of tied values and NaNs.
//!
//! ATen's CPU kernel (`topk_impl_loop` in `aten/src/ATen/native/TopKImpl.h`,
//! dispatched from `SortingKernel.cpp`) builds, for every row, a queue of
//! `(value, index)` pairs and runs libstdc++'s `std::partial_sort` or
//! `std::nth_element` (+ `std::sort`) on it with a value-only comparator.
//! Those algorithms are not stable, so the order of ties depends on the exact
//! sequence of moves and comparisons libstdc++ performs.  This module mirrors
//! libstdc++'s `bits/stl_algo.h` / `bits/stl_heap.h` (GCC 12 text; these
//! routines have been unchanged for many years) step by step, comparing with
//! the same comparator calls in the same order and performing the same moves.
//!
//! All helpers work on one slice with absolute indices playing the role of
//! the C++ random-access iterators (`first`, `last`, ... are offsets into
//! `q`).  No external crates are used.

/// One queue entry: `(value, original index)`, like ATen's
/// `std::pair<accscalar_t, int64_t>`.
type Elem<T> = (T, usize);

/// libstdc++ `_S_threshold`.
const S_THRESHOLD: usize = 16;

/// `std::__lg(n)`: floor(log2(n)) for n > 0.
fn lg(n: usize) -> usize {
    debug_assert!(n > 0);
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

/// Returns the `k` indices `torch.topk(row, k, largest=largest, sorted=sorted)`
/// yields on CPU, in the order PyTorch returns them (values are
/// `vals[idx]`).
///
/// `is_nan` must report NaN-ness of a value (return `false` for integer
/// types). NaN is treated as larger than every number (so it comes first for
/// `largest=true` and last for `largest=false`), exactly like ATen.
///
/// Panics if `k > vals.len()`.
pub fn topk_row<T: Copy + PartialOrd>(
    vals: &[T],
    k: usize,
    largest: bool,
    sorted: bool,
    is_nan: impl Fn(T) -> bool,
) -> Vec<usize> {
    assert!(k <= vals.len(), "topk: k ({k}) out of range for row of length {}", vals.len());
    if k > 0 && k * 64 <= vals.len() {
        // std::partial_sort's path, with the elements that cannot enter the heap skipped a
        // block at a time (`heap_topk`); `beats(x, top)` is the comparator below on values
        return if largest {
            heap_topk(vals, k, |x: &Elem<T>, y: &Elem<T>| (is_nan(x.0) && !is_nan(y.0)) || x.0 > y.0,
                      |x: T, top: T, top_nan: bool| !top_nan && !(x <= top))
        } else {
            #[allow(clippy::eq_op)]
            heap_topk(vals, k, |x: &Elem<T>, y: &Elem<T>| (!is_nan(x.0) && is_nan(y.0)) || x.0 < y.0,
                      |x: T, top: T, top_nan: bool| if top_nan { x == x } else { x < top })
        };
    }
    if largest {
        // [](x, y) { return (_isnan(x) && !_isnan(y)) || (x > y); }
        topk_row_by(vals, k, sorted, |x: &Elem<T>, y: &Elem<T>| {
            (is_nan(x.0) && !is_nan(y.0)) || x.0 > y.0
        })
    } else {
        // [](x, y) { return (!_isnan(x) && _isnan(y)) || (x < y); }
        topk_row_by(vals, k, sorted, |x: &Elem<T>, y: &Elem<T>| {
            (!is_nan(x.0) && is_nan(y.0)) || x.0 < y.0
        })
    }
}

/// The body of ATen's `topk_impl_loop` for a single row, generic over the
/// comparator (`comp(a, b)` == "a goes before b").
fn topk_row_by<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    vals: &[T],
    k: usize,
    sorted: bool,
    comp: C,
) -> Vec<usize> {
    // "If k is zero, then output values and indices are empty tensors".
    if k == 0 {
        return Vec::new();
    }
    let n = vals.len();
    let mut q: Vec<Elem<T>> = vals.iter().copied().zip(0..n).collect();

    let use_partial_sort = k * 64 <= n;
    if use_partial_sort {
        // std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), comp)
        // (always leaves the first k sorted, regardless of `sorted`).
        partial_sort(&mut q, 0, k, n, &comp);
    } else {
        // std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), comp)
        nth_element(&mut q, 0, k - 1, n, &comp);
        if sorted {
            // std::sort(queue.begin(), queue.begin() + k - 1, comp)
            // NOTE: k - 1, not k: the nth element is already in place.
            sort(&mut q, 0, k - 1, &comp);
        }
    }
    q[..k].iter().map(|e| e.1).collect()
}

/// `std::partial_sort(q.begin(), q.begin() + k, q.end(), comp)` over the row's
/// `(value, index)` queue, as `partial_sort` runs it, without building the queue past the
/// heap: there libstdc++'s heap select only compares each element with the heap's top and,
/// when it goes before the top, pops the top to that place (never read again) and sifts the
/// element in. So only the heap is kept, and blocks of 16 elements none of which goes
/// before the top (`beats(x, top, top_is_nan)`, exactly `comp` on values: branch-free, it
/// vectorises) are skipped. Same comparisons that decide, same moves in the heap: the same
/// order of ties and NaNs.
fn heap_topk<T: Copy + PartialOrd, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    vals: &[T],
    k: usize,
    comp: C,
    beats: impl Fn(T, T, bool) -> bool,
) -> Vec<usize> {
    const BLOCK: usize = 16;
    let n = vals.len();
    let mut q: Vec<Elem<T>> = vals[..k].iter().copied().zip(0..k).collect();
    make_heap(&mut q, 0, k, &comp);
    let mut i = k;
    while i < n {
        let top = q[0];
        #[allow(clippy::eq_op)]
        let top_nan = top.0 != top.0;
        while i + BLOCK <= n && !vals[i..i + BLOCK].iter().fold(false, |a, &x| a | beats(x, top.0, top_nan)) {
            i += BLOCK;
        }
        let end = (i + BLOCK).min(n);
        while i < end {
            let e = (vals[i], i);
            i += 1;
            if comp(&e, &q[0]) {
                // std::__pop_heap(first, middle, i): the element sifted in from the top
                adjust_heap(&mut q, 0, 0, k, e, &comp);
                break;
            }
        }
    }
    sort_heap(&mut q, 0, k, &comp);
    q.iter().map(|e| e.1).collect()
}

// ---------------------------------------------------------------------------
// bits/stl_heap.h
// ---------------------------------------------------------------------------

/// `std::__push_heap(first, holeIndex, topIndex, value, comp)`
/// (comp is `__iter_comp_val`: `comp(*(first + parent), value)`).
fn push_heap<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    mut hole: usize,
    top: usize,
    value: Elem<T>,
    comp: &C,
) {
    // `parent = (holeIndex - 1) / 2` is only ever used when holeIndex > topIndex >= 0.
    while hole > top {
        let parent = (hole - 1) / 2;
        if !comp(&q[first + parent], &value) {
            break;
        }
        q[first + hole] = q[first + parent];
        hole = parent;
    }
    q[first + hole] = value;
}

/// `std::__adjust_heap(first, holeIndex, len, value, comp)`.
fn adjust_heap<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    mut hole: usize,
    len: usize,
    value: Elem<T>,
    comp: &C,
) {
    debug_assert!(len >= 1);
    let top = hole;
    let mut second = hole;
    while second < (len - 1) / 2 {
        second = 2 * (second + 1);
        if comp(&q[first + second], &q[first + second - 1]) {
            second -= 1;
        }
        q[first + hole] = q[first + second];
        hole = second;
    }
    if len & 1 == 0 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        q[first + hole] = q[first + second - 1];
        hole = second - 1;
    }
    push_heap(q, first, hole, top, value, comp);
}

/// `std::__pop_heap(first, last, result, comp)`: moves `*first` to `*result`
/// and re-heapifies `[first, last)` with the old `*result`.
fn pop_heap<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    result: usize,
    comp: &C,
) {
    let value = q[result];
    q[result] = q[first];
    adjust_heap(q, first, 0, last - first, value, comp);
}

/// `std::__make_heap(first, last, comp)`.
fn make_heap<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) {
    if last - first < 2 {
        return;
    }
    let len = last - first;
    let mut parent = (len - 2) / 2;
    loop {
        let value = q[first + parent];
        adjust_heap(q, first, parent, len, value, comp);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

/// `std::__sort_heap(first, last, comp)`.
fn sort_heap<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    mut last: usize,
    comp: &C,
) {
    while last - first > 1 {
        last -= 1;
        pop_heap(q, first, last, last, comp);
    }
}

// ---------------------------------------------------------------------------
// bits/stl_algo.h
// ---------------------------------------------------------------------------

/// `std::__heap_select(first, middle, last, comp)`.
fn heap_select<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    middle: usize,
    last: usize,
    comp: &C,
) {
    make_heap(q, first, middle, comp);
    for i in middle..last {
        if comp(&q[i], &q[first]) {
            pop_heap(q, first, middle, i, comp);
        }
    }
}

/// `std::__partial_sort(first, middle, last, comp)` (what
/// `std::partial_sort` calls).
fn partial_sort<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    middle: usize,
    last: usize,
    comp: &C,
) {
    heap_select(q, first, middle, last, comp);
    sort_heap(q, first, middle, comp);
}

/// `std::__move_median_to_first(result, a, b, c, comp)`.
fn move_median_to_first<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    comp: &C,
) {
    if comp(&q[a], &q[b]) {
        if comp(&q[b], &q[c]) {
            q.swap(result, b);
        } else if comp(&q[a], &q[c]) {
            q.swap(result, c);
        } else {
            q.swap(result, a);
        }
    } else if comp(&q[a], &q[c]) {
        q.swap(result, a);
    } else if comp(&q[b], &q[c]) {
        q.swap(result, c);
    } else {
        q.swap(result, b);
    }
}

/// `std::__unguarded_partition(first, last, pivot, comp)`.
///
/// The scans are unguarded in libstdc++ (the median-of-three guarantees
/// sentinels); the bounds checks here only matter for a comparator that is
/// not a strict weak ordering and never change the result otherwise.
fn unguarded_partition<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    mut first: usize,
    mut last: usize,
    pivot: usize,
    comp: &C,
) -> usize {
    loop {
        while first + 1 < q.len() && comp(&q[first], &q[pivot]) {
            first += 1;
        }
        last -= 1;
        while last > 0 && comp(&q[pivot], &q[last]) {
            last -= 1;
        }
        if first >= last {
            // `if (!(__first < __last)) return __first;`
            return first;
        }
        q.swap(first, last);
        first += 1;
    }
}

/// `std::__unguarded_partition_pivot(first, last, comp)`.
fn unguarded_partition_pivot<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(q, first, first + 1, mid, last - 1, comp);
    unguarded_partition(q, first + 1, last, first, comp)
}

/// `std::__unguarded_linear_insert(last, comp)` (comp is `__val_comp_iter`:
/// `comp(val, *next)`).
fn unguarded_linear_insert<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    mut last: usize,
    comp: &C,
) {
    let val = q[last];
    // `last > 0` is a safety guard only (see `unguarded_partition`).
    while last > 0 && comp(&val, &q[last - 1]) {
        q[last] = q[last - 1];
        last -= 1;
    }
    q[last] = val;
}

/// `std::__insertion_sort(first, last, comp)`.
fn insertion_sort<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) {
    if first == last {
        return;
    }
    for i in first + 1..last {
        if comp(&q[i], &q[first]) {
            // val = move(*i); move_backward(first, i, i + 1); *first = move(val);
            let val = q[i];
            q.copy_within(first..i, first + 1);
            q[first] = val;
        } else {
            unguarded_linear_insert(q, i, comp);
        }
    }
}

/// `std::__unguarded_insertion_sort(first, last, comp)`.
fn unguarded_insertion_sort<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) {
    for i in first..last {
        unguarded_linear_insert(q, i, comp);
    }
}

/// `std::__final_insertion_sort(first, last, comp)`.
fn final_insertion_sort<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) {
    if last - first > S_THRESHOLD {
        insertion_sort(q, first, first + S_THRESHOLD, comp);
        unguarded_insertion_sort(q, first + S_THRESHOLD, last, comp);
    } else {
        insertion_sort(q, first, last, comp);
    }
}

/// `std::__introsort_loop(first, last, depth_limit, comp)`.
fn introsort_loop<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    mut last: usize,
    mut depth_limit: usize,
    comp: &C,
) {
    while last - first > S_THRESHOLD {
        if depth_limit == 0 {
            // heap-sort fallback: std::__partial_sort(first, last, last, comp)
            partial_sort(q, first, last, last, comp);
            return;
        }
        depth_limit -= 1;
        let cut = unguarded_partition_pivot(q, first, last, comp);
        introsort_loop(q, cut, last, depth_limit, comp);
        last = cut;
    }
}

/// `std::sort(first, last, comp)` -> `std::__sort`.
fn sort<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    last: usize,
    comp: &C,
) {
    if first != last {
        introsort_loop(q, first, last, lg(last - first) * 2, comp);
        final_insertion_sort(q, first, last, comp);
    }
}

/// `std::__introselect(first, nth, last, depth_limit, comp)`.
fn introselect<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    mut first: usize,
    nth: usize,
    mut last: usize,
    mut depth_limit: usize,
    comp: &C,
) {
    while last - first > 3 {
        if depth_limit == 0 {
            heap_select(q, first, nth + 1, last, comp);
            // Place the nth largest element in its final position.
            q.swap(first, nth);
            return;
        }
        depth_limit -= 1;
        let cut = unguarded_partition_pivot(q, first, last, comp);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(q, first, last, comp);
}

/// `std::nth_element(first, nth, last, comp)`.
fn nth_element<T: Copy, C: Fn(&Elem<T>, &Elem<T>) -> bool>(
    q: &mut [Elem<T>],
    first: usize,
    nth: usize,
    last: usize,
    comp: &C,
) {
    if first == last || nth == last {
        return;
    }
    introselect(q, first, nth, last, lg(last - first) * 2, comp);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_nan(x: f32) -> bool {
        x.is_nan()
    }

    fn f64_nan(x: f64) -> bool {
        x.is_nan()
    }

    #[test]
    fn heap_topk_matches_the_full_queue_heap_select() {
        // the skipping heap select against libstdc++'s steps on the whole queue, on rows of
        // few distinct values (ties everywhere) with NaNs, both directions, sorted or not
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let k = 1 + round % 5;
            let n = 64 * k + (next() % 300) as usize;
            let row: Vec<f32> = (0..n).map(|_| match next() % 11 { 0 => f32::NAN, v => (v % 6) as f32 }).collect();
            for largest in [true, false] {
                let full = if largest {
                    topk_row_by(&row, k, true, |x: &Elem<f32>, y: &Elem<f32>| (f32_nan(x.0) && !f32_nan(y.0)) || x.0 > y.0)
                } else {
                    topk_row_by(&row, k, true, |x: &Elem<f32>, y: &Elem<f32>| (!f32_nan(x.0) && f32_nan(y.0)) || x.0 < y.0)
                };
                assert_eq!(topk_row(&row, k, largest, true, f32_nan), full, "k={k} n={n} largest={largest}");
                assert_eq!(topk_row(&row, k, largest, false, f32_nan), full);
            }
            let ints: Vec<i64> = (0..n).map(|_| (next() % 4) as i64).collect();
            let full = topk_row_by(&ints, k, true, |x: &Elem<i64>, y: &Elem<i64>| x.0 > y.0);
            assert_eq!(topk_row(&ints, k, true, true, |_| false), full);
        }
    }

    // Expected indices below were produced by torch 2.13.0+cpu `torch.topk`.

    /// Small row with ties and NaNs (nth_element path, k * 64 > n).
    fn row_a() -> Vec<f32> {
        let nan = f32::NAN;
        vec![
            1.0, nan, 2.0, 1.0, 0.0, 2.0, nan, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, nan, 1.0, 2.0, 1.0,
            0.0, 2.0, 1.0,
        ]
    }

    #[test]
    fn ties_and_nan_nth_element_path() {
        let a = row_a();
        assert_eq!(topk_row(&a, 7, true, true, f32_nan), vec![6, 13, 1, 15, 8, 2, 5]);
        assert_eq!(topk_row(&a, 7, false, true, f32_nan), vec![4, 9, 12, 17, 0, 19, 16]);
        assert_eq!(
            topk_row(&a, 12, true, false, f32_nan),
            vec![6, 13, 16, 1, 18, 5, 11, 2, 8, 15, 14, 19]
        );
        assert_eq!(
            topk_row(&a, 20, false, true, f32_nan),
            vec![17, 4, 12, 9, 19, 16, 14, 0, 10, 7, 3, 11, 8, 15, 2, 18, 5, 6, 1, 13]
        );
    }

    #[test]
    fn partial_sort_path() {
        // n = 130, k = 2 -> k * 64 <= n -> std::partial_sort.
        let mut b: Vec<f64> = (0..130).map(|i| ((i * 7) % 3) as f64).collect();
        b[5] = f64::NAN;
        b[77] = f64::NAN;
        assert_eq!(topk_row(&b, 2, true, true, f64_nan), vec![77, 5]);
        assert_eq!(topk_row(&b, 2, false, true, f64_nan), vec![3, 0]);
        assert_eq!(topk_row(&b, 2, false, false, f64_nan), vec![3, 0]);
    }

    #[test]
    fn all_equal_unguarded_insertion() {
        let c = vec![3.0f64; 40];
        assert_eq!(
            topk_row(&c, 25, true, true, f64_nan),
            vec![
                28, 5, 7, 6, 8, 21, 22, 23, 24, 25, 26, 27, 20, 29, 30, 31, 32, 33, 34, 35, 36,
                37, 38, 39, 9
            ]
        );
        assert_eq!(topk_row(&c, 1, true, true, f64_nan), vec![28]);
    }

    #[test]
    fn int64_organ_pipe_ties() {
        let d: Vec<i64> = (0..50i64).map(|i| i.min(49 - i) % 4).collect();
        let no_nan = |_: i64| false;
        assert_eq!(
            topk_row(&d, 30, true, true, no_nan),
            vec![
                26, 3, 38, 46, 42, 7, 23, 15, 30, 11, 19, 34, 22, 18, 31, 39, 43, 27, 14, 47, 10,
                35, 6, 2, 32, 36, 40, 1, 48, 13
            ]
        );
        assert_eq!(
            topk_row(&d, 30, false, true, no_nan),
            vec![
                49, 4, 8, 25, 12, 16, 20, 24, 0, 29, 33, 37, 41, 45, 17, 9, 21, 48, 28, 32, 5, 36,
                40, 44, 1, 13, 39, 10, 18, 35
            ]
        );
        assert_eq!(
            topk_row(&d, 10, false, false, no_nan),
            vec![29, 12, 16, 20, 24, 0, 41, 49, 45, 25]
        );
    }

    #[test]
    fn signed_zeros_and_infinities() {
        let (inf, nan) = (f32::INFINITY, f32::NAN);
        let e = vec![0.0, -0.0, inf, -inf, nan, -0.0, 0.0, 1.0, inf, -0.0];
        assert_eq!(topk_row(&e, 6, true, true, f32_nan), vec![4, 2, 8, 7, 9, 5]);
        assert_eq!(topk_row(&e, 6, false, true, f32_nan), vec![3, 5, 9, 6, 0, 1]);
    }

    #[test]
    fn k_zero_and_single() {
        let v = [1.0f32, 2.0];
        assert!(topk_row(&v, 0, true, true, f32_nan).is_empty());
        assert_eq!(topk_row(&[5i64], 1, false, true, |_| false), vec![0]);
    }
}
