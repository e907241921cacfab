//! ROC AUC by the rank-sum (Mann–Whitney U) formula, with ties.
//!
//! AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊ n₋), where R₊ is the sum of the positives' ranks among all
//! scores (ascending, tied scores sharing their mean rank). It equals the probability that a random
//! positive scores above a random negative, ties counting one half.

/// The AUC of `positives` against `negatives`; `None` when either is empty or a score is NaN.
pub fn auc(positives: &[f64], negatives: &[f64]) -> Option<f64> {
    if positives.is_empty() || negatives.is_empty() {
        return None;
    }
    if positives.iter().chain(negatives).any(|x| x.is_nan()) {
        return None;
    }
    let mut all: Vec<(f64, bool)> = positives
        .iter()
        .map(|&x| (x, true))
        .chain(negatives.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j < all.len() && all[j].0 == all[i].0 {
            j += 1;
        }
        // Ranks i+1..=j (1-based) share their mean.
        let mean_rank = (i + 1 + j) as f64 / 2.0;
        let pos = all[i..j].iter().filter(|x| x.1).count();
        rank_sum += mean_rank * pos as f64;
        i = j;
    }
    let (np, nn) = (positives.len() as f64, negatives.len() as f64);
    Some((rank_sum - np * (np + 1.0) / 2.0) / (np * nn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separation_reversal_and_ties() {
        assert_eq!(auc(&[0.9, 0.8], &[0.1, 0.2, 0.3]), Some(1.0));
        assert_eq!(auc(&[0.1, 0.2], &[0.8, 0.9]), Some(0.0));
        assert_eq!(auc(&[0.5, 0.5], &[0.5]), Some(0.5));
        // Pairs: (0.5, 0.5) ties = 1/2, (0.5, 0.1) = 1, (0.8, 0.5) = 1, (0.8, 0.1) = 1 → 3.5 / 4.
        assert_eq!(auc(&[0.5, 0.8], &[0.5, 0.1]), Some(0.875));
        // 0.3 beats 0.2 and 0.0 (2); 0.6 beats 0.2, 0.4, 0.0 and ties 0.6 (3.5) → 5.5 / 8.
        assert_eq!(auc(&[0.3, 0.6], &[0.2, 0.4, 0.0, 0.6]), Some(0.6875));
        assert_eq!(auc(&[], &[0.1]), None);
        assert_eq!(auc(&[f64::NAN], &[0.1]), None);
    }

    #[test]
    fn agrees_with_counting_pairs() {
        let pos = [0.1, 0.4, 0.4, 0.7, 0.0, 1.0, 0.4];
        let neg = [0.0, 0.0, 0.4, 0.2, 0.9, 0.1];
        let mut wins = 0.0;
        for p in pos {
            for n in neg {
                wins += if p > n {
                    1.0
                } else if p == n {
                    0.5
                } else {
                    0.0
                };
            }
        }
        let expected = wins / (pos.len() * neg.len()) as f64;
        assert!((auc(&pos, &neg).unwrap() - expected).abs() < 1e-12);
    }
}
