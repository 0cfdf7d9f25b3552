//! The arithmetic both df-pn searches share: combining children's numbers,
//! choosing the child to expand, the 1+ε threshold and table sizing.

use super::guide::Sums;
use super::pn::Pn;

/// The ε of the 1+ε trick, as a fraction numerator / 4 (ε = 1/4).
const EPSILON_QUARTERS: u64 = 1;

/// How many entries a hash-map table may hold so that it never takes more
/// than `budget` bytes, when one bucket costs `bucket_bytes` (key, entry
/// and control byte). The hash map keeps a power-of-two number of buckets
/// at most 7/8 full and, while it grows, holds the old table (half the
/// buckets) beside the new one: so the largest bucket count `b` allowed is
/// the largest power of two with `1.5 · b · bucket_bytes <= budget`.
pub(crate) fn table_capacity(budget: usize, bucket_bytes: usize) -> usize {
    let max_buckets = budget / (bucket_bytes * 3 / 2);
    let buckets = if max_buckets == 0 {
        0
    } else {
        1usize << (usize::BITS - 1 - max_buckets.leading_zeros())
    };
    (buckets / 8 * 7).max(1024)
}

/// A node's numbers from its children's `(pn, dn)`, with weak proof
/// numbers on the "sum" side (see [`combine_with`]).
pub(crate) fn combine(or_node: bool, children: impl Iterator<Item = (Pn, Pn)>) -> (Pn, Pn) {
    combine_with(Sums::Weak, or_node, children)
}

/// A node's numbers from its children's `(pn, dn)`. With [`Sums::Weak`]
/// the "sum" side uses weak proof numbers (Ueda et al.): the largest child
/// number plus one for each other unsolved child. Plain sums
/// ([`Sums::Plain`]) count shared subtrees once per path and can grow on
/// transpositions and cycles until they saturate; the weak form stays
/// bounded.
pub(crate) fn combine_with(
    sums: Sums,
    or_node: bool,
    children: impl Iterator<Item = (Pn, Pn)>,
) -> (Pn, Pn) {
    let mut min = Pn::INFINITE;
    let mut max = Pn::ZERO;
    let mut total = Pn::ZERO;
    let mut open = 0u64;
    let mut infinite = false;
    for (pn, dn) in children {
        let (min_side, sum_side) = if or_node { (pn, dn) } else { (dn, pn) };
        min = min.min(min_side);
        if sum_side.is_infinite() {
            infinite = true;
        } else if !sum_side.is_zero() {
            open += 1;
            max = max.max(sum_side);
            total = total.plus(sum_side);
        }
    }
    let sum = if infinite {
        Pn::INFINITE
    } else if open == 0 {
        Pn::ZERO
    } else {
        match sums {
            Sums::Weak | Sums::Switch { .. } => max.plus(Pn::new(open - 1)),
            Sums::Plain | Sums::SourceNodes => total,
        }
    };
    if or_node { (min, sum) } else { (sum, min) }
}

/// As [`combine_with`] with plain sums, except that the children are in
/// groups (`group[i]`: the group of child `i`) whose subtrees meet: each
/// group adds its largest open number once.
pub(crate) fn combine_grouped(
    or_node: bool,
    children: impl Iterator<Item = (Pn, Pn)>,
    group: &[usize],
) -> (Pn, Pn) {
    let mut min = Pn::INFINITE;
    let mut largest = vec![Pn::ZERO; group.len()];
    let mut infinite = false;
    for (i, (pn, dn)) in children.enumerate() {
        let (min_side, sum_side) = if or_node { (pn, dn) } else { (dn, pn) };
        min = min.min(min_side);
        if sum_side.is_infinite() {
            infinite = true;
        } else {
            let g = group[i];
            largest[g] = largest[g].max(sum_side);
        }
    }
    let sum = if infinite {
        Pn::INFINITE
    } else {
        largest.into_iter().fold(Pn::ZERO, Pn::plus)
    };
    if or_node { (min, sum) } else { (sum, min) }
}

/// The most promising child (smallest proof number at OR nodes, smallest
/// disproof number at AND nodes) and the second smallest number.
pub(crate) fn select(or_node: bool, children: impl Iterator<Item = (Pn, Pn)>) -> (usize, Pn) {
    let mut best = 0;
    let mut best_value = Pn::INFINITE;
    let mut second = Pn::INFINITE;
    for (i, (pn, dn)) in children.enumerate() {
        let value = if or_node { pn } else { dn };
        if value < best_value {
            second = best_value;
            best_value = value;
            best = i;
        } else if value < second {
            second = value;
        }
    }
    (best, second)
}

/// As [`select`], but among children with the same number the one with
/// the larger other number (disproof number where the attacker moves,
/// proof number where the defender moves) is chosen.
pub(crate) fn select_larger_other(
    or_node: bool,
    children: impl Iterator<Item = (Pn, Pn)>,
) -> (usize, Pn) {
    let mut best = 0;
    let mut best_value = (Pn::INFINITE, std::cmp::Reverse(Pn::ZERO));
    let mut second = Pn::INFINITE;
    for (i, (pn, dn)) in children.enumerate() {
        let (value, other) = if or_node { (pn, dn) } else { (dn, pn) };
        let key = (value, std::cmp::Reverse(other));
        if key < best_value {
            if value < best_value.0 {
                second = best_value.0;
            } else {
                second = second.min(value);
            }
            best_value = key;
            best = i;
        } else if value < second {
            second = value;
        }
    }
    (best, second)
}

/// The thresholds for the child chosen by [`select`] at a node with
/// numbers `node` and thresholds `threshold`: the 1+ε trick on the side the
/// node minimises, the remaining slack on the other.
pub(crate) fn child_thresholds(
    or_node: bool,
    threshold: (Pn, Pn),
    node: (Pn, Pn),
    child: (Pn, Pn),
    second: Pn,
) -> (Pn, Pn) {
    if or_node {
        (
            epsilon_threshold(threshold.0, second),
            threshold.1.sub_add(node.1, child.1),
        )
    } else {
        (
            threshold.0.sub_add(node.0, child.0),
            epsilon_threshold(threshold.1, second),
        )
    }
}

/// The 1+ε trick: let the best child run until its number exceeds the
/// second best by a factor 1+ε, not just by one, which cuts re-expansions.
pub(crate) fn epsilon_threshold(parent_threshold: Pn, second: Pn) -> Pn {
    if second.is_infinite() {
        return parent_threshold;
    }
    let s = u64::from(second.get());
    let grown = (s * (4 + EPSILON_QUARTERS)).div_ceil(4).max(s + 1);
    parent_threshold.min(Pn::new(grown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_capacity_respects_the_budget() {
        for bucket_bytes in [25usize, 33] {
            for mb in [1usize, 64, 1024, 8192] {
                let budget = mb << 20;
                let capacity = table_capacity(budget, bucket_bytes);
                let buckets = (capacity * 8 / 7).next_power_of_two();
                assert!(buckets * bucket_bytes * 3 / 2 <= budget, "{mb} MB");
                assert!(capacity * 2 * 25 > budget / 4, "{mb} MB: too cautious");
            }
        }
    }

    #[test]
    fn ties_go_to_the_larger_other_number() {
        let n = |v| Pn::new(v);
        let children = [(n(2), n(3)), (n(2), n(7)), (n(4), n(9))];
        assert_eq!(select(true, children.into_iter()), (0, n(2)));
        assert_eq!(select_larger_other(true, children.into_iter()), (1, n(2)));
        // At AND nodes the disproof number is minimised, the proof number breaks ties.
        let children = [(n(5), n(1)), (n(8), n(1)), (n(1), n(3))];
        assert_eq!(select_larger_other(false, children.into_iter()), (1, n(1)));
        assert_eq!(
            select_larger_other(true, [(n(3), n(1))].into_iter()),
            (0, Pn::INFINITE)
        );
    }

    #[test]
    fn weak_sums_stay_bounded_and_infinity_wins() {
        let n = |v| Pn::new(v);
        let and = combine(
            false,
            [(n(3), n(1)), (n(5), n(2)), (Pn::ZERO, Pn::INFINITE)].into_iter(),
        );
        assert_eq!(and, (n(6), n(1)));
        let or = combine(true, [(n(3), Pn::INFINITE), (n(5), n(2))].into_iter());
        assert_eq!(or, (n(3), Pn::INFINITE));
    }

    #[test]
    fn grouped_children_add_their_largest_number_once() {
        let n = |v| Pn::new(v);
        let children = [(n(3), n(1)), (n(5), n(2)), (n(4), n(1))];
        // Children 0 and 2 meet below: 5 + max(3, 4).
        assert_eq!(
            combine_grouped(false, children.into_iter(), &[0, 1, 0]),
            (n(9), n(1))
        );
        assert_eq!(
            combine_grouped(false, children.into_iter(), &[0, 1, 2]),
            combine_with(Sums::Plain, false, children.into_iter())
        );
    }

    #[test]
    fn plain_sums_add_every_open_child() {
        let n = |v| Pn::new(v);
        let children = [(n(3), n(1)), (n(5), n(2)), (Pn::ZERO, Pn::INFINITE)];
        assert_eq!(
            combine_with(Sums::Plain, false, children.into_iter()),
            (n(8), n(1))
        );
        let or = [(n(3), n(4)), (n(5), n(2))];
        assert_eq!(
            combine_with(Sums::Plain, true, or.into_iter()),
            (n(3), n(6))
        );
        let with_infinite = [(n(3), Pn::INFINITE), (n(5), n(2))];
        assert_eq!(
            combine_with(Sums::Plain, true, with_infinite.into_iter()),
            (n(3), Pn::INFINITE)
        );
    }
}
