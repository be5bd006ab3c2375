//! `Buckets`: items grouped by a small integer key (a cell, a point id) with a counting sort and
//! stored flat, so a lookup is one slice of one array. Used for the piece grid, the kept
//! constraint runs at each point, the constraint segments at each vertex and the sort of split
//! pieces by point.
//!
//! Owns nothing but the grouping; must never depend on other collision modules.

/// Items grouped by key: bucket `k` is `items[start[k]..start[k + 1]]`, in the order they came.
#[derive(Clone, Debug)]
pub(crate) struct Buckets<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Default> Buckets<T> {
    /// Groups the `(key, item)` pairs that `entries()` yields into `keys` buckets (every key must
    /// be below `keys`). `entries` is called twice: once to count, once to fill.
    pub(crate) fn new<I: Iterator<Item = (usize, T)>>(
        keys: usize,
        entries: impl Fn() -> I,
    ) -> Self {
        let mut start = vec![0u32; keys + 1];
        for (k, _) in entries() {
            start[k + 1] += 1;
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut next = start[..keys].to_vec();
        let mut items = vec![T::default(); start[keys] as usize];
        for (k, item) in entries() {
            items[next[k] as usize] = item;
            next[k] += 1;
        }
        Buckets { start, items }
    }

    /// The items of bucket `k`.
    #[inline]
    pub(crate) fn get(&self, k: usize) -> &[T] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Where bucket `k`'s items lie in [`Self::items`].
    #[inline]
    pub(crate) fn range(&self, k: usize) -> std::ops::Range<usize> {
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// Every item, bucket by bucket.
    pub(crate) fn items(&self) -> &[T] {
        &self.items
    }

    /// The items bucket by bucket, each bucket sorted: all items sorted, when the bucket key
    /// orders them first (a counting sort on the key, then small sorts).
    pub(crate) fn into_sorted(mut self) -> Vec<T>
    where
        T: Ord,
    {
        for w in self.start.windows(2) {
            self.items[w[0] as usize..w[1] as usize].sort_unstable();
        }
        self.items
    }

    /// Number of buckets.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.start.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_land_in_their_buckets_in_order() {
        let pairs = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd')];
        let b = Buckets::new(4, || pairs.iter().copied());
        assert_eq!(b.len(), 4);
        assert_eq!(b.get(0), ['b']);
        assert_eq!(b.get(1), [] as [char; 0]);
        assert_eq!(b.get(2), ['a', 'c']);
        assert_eq!(b.get(3), ['d']);
    }

    #[test]
    fn buckets_keyed_by_the_leading_digit_sort_everything() {
        let values = [42u32, 7, 19, 40, 3, 11, 47, 15, 0, 41];
        let b = Buckets::new(5, || values.iter().map(|&v| (v as usize / 10, v)));
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        assert_eq!(b.into_sorted(), sorted);
    }
}
