//! Building the benchmark's pairs: for every source long enough, a layout (which passages, which
//! of the other texts' sentences around them as the writer's own text) drawn from the source's
//! own stream, then one draft per kind with those passages rewritten, and the truth (where each
//! passage is in the draft and in the source).

use super::corpus::Text;
use super::rewrite::rewrite;
use super::rng::Rng;
use super::synonymizer::{SynonymCounts, Synonymizer};
use super::{Kind, MIN_SOURCE_SENTENCES, PASSAGE_SENTENCES, SEED, TWO_PASSAGES_SENTENCES};
use std::ops::Range;

/// One draft–source pair of the benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The source's file name.
    pub source: String,
    /// Its split.
    pub split: String,
    /// How the passages were rewritten.
    pub kind: Kind,
    /// The draft.
    pub draft: String,
    /// Each rewritten passage: (draft byte range, source byte range).
    pub truth: Vec<(Range<usize>, Range<usize>)>,
    /// What the synonymizer did.
    pub counts: SynonymCounts,
}

/// Where a source's passages and own text come from.
#[derive(Debug, Clone)]
struct Layout {
    /// Sentence ranges (indices into the source's sentences).
    passages: Vec<Range<usize>>,
    /// Own text: (text index, sentence range) before, between and after the passages.
    own: Vec<(usize, Range<usize>)>,
}

fn layout(texts: &[Text], si: usize, pool: &[usize], rng: &mut Rng) -> Layout {
    let n = texts[si].sentences.len();
    let count = if n >= TWO_PASSAGES_SENTENCES { 2 } else { 1 };
    // Passage starts: the first in the first half, the second in the second half.
    let mut passages = Vec::new();
    for p in 0..count {
        let lo = p * n / count;
        let hi = ((p + 1) * n / count)
            .saturating_sub(PASSAGE_SENTENCES)
            .max(lo);
        let start = lo + rng.below(hi - lo + 1);
        passages.push(start..(start + PASSAGE_SENTENCES).min(n));
    }
    let others: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&t| t != si && texts[t].sentences.len() >= 3)
        .collect();
    let own = (0..=count)
        .map(|_| {
            let t = others[rng.below(others.len())];
            let m = texts[t].sentences.len();
            let len = (3 + rng.below(3)).min(m);
            let start = rng.below(m - len + 1);
            (t, start..start + len)
        })
        .collect();
    Layout { passages, own }
}

/// Builds the benchmark: every source of `texts` with every kind of `kinds`.
pub fn build(texts: &[Text], kinds: &[Kind], syn: &Synonymizer) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut splits: Vec<&str> = texts.iter().map(|t| t.split.as_str()).collect();
    splits.dedup();
    for split in splits {
        let pool: Vec<usize> = (0..texts.len())
            .filter(|&i| texts[i].split == split)
            .collect();
        if pool.len() < 2 {
            continue;
        }
        for &si in &pool {
            let src = &texts[si];
            if src.sentences.len() < MIN_SOURCE_SENTENCES {
                continue;
            }
            let lay = layout(texts, si, &pool, &mut Rng::new(SEED, &src.name));
            for &kind in kinds {
                let mut rng = Rng::new(SEED, &format!("{}/{}", src.name, kind.name()));
                let mut draft = String::new();
                let mut truth = Vec::new();
                let mut counts = SynonymCounts::default();
                let add = |draft: &mut String, part: &str| {
                    if !draft.is_empty() {
                        draft.push_str("\n\n");
                    }
                    let start = draft.len();
                    draft.push_str(part);
                    start..draft.len()
                };
                for (i, (t, r)) in lay.own.iter().enumerate() {
                    let own = &texts[*t];
                    let part: Vec<&str> = own.sentences[r.clone()]
                        .iter()
                        .map(|s| &own.text[s.clone()])
                        .collect();
                    add(&mut draft, &part.join(" "));
                    let Some(p) = lay.passages.get(i) else {
                        continue;
                    };
                    if kind == Kind::None {
                        continue;
                    }
                    let sentences: Vec<&str> = src.sentences[p.clone()]
                        .iter()
                        .map(|s| &src.text[s.clone()])
                        .collect();
                    let text = rewrite(&sentences, kind, syn, &mut rng, &mut counts);
                    let d = add(&mut draft, &text);
                    let s = src.sentences[p.start].start..src.sentences[p.end - 1].end;
                    truth.push((d, s));
                }
                pairs.push(Pair {
                    source: src.name.clone(),
                    split: split.to_owned(),
                    kind,
                    draft,
                    truth,
                    counts,
                });
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewrites::corpus::split_sentences;
    use crate::rewrites::synonymizer::tests::synonymizer;
    use std::collections::HashMap;

    fn corpus() -> Vec<Text> {
        let base = [
            "Мэрия Москвы согласовала акцию протеста. Организаторы ожидают около тысячи участников. \
             Полиция обещает обеспечить порядок. Акция начнётся в семь часов вечера. Участники \
             пройдут по бульварам. Журналисты будут освещать событие. Власти призвали к спокойствию. \
             Погода обещает быть хорошей. После шествия состоится митинг. Выступят известные \
             политики и общественные деятели. Итоги подведут на следующий день.",
            "Компания представила новый смартфон. Устройство получило большой экран и мощный \
             процессор. Продажи стартуют осенью. Цена пока не объявлена. Аналитики ожидают высокого \
             спроса. Конкуренты готовят ответ. Производство налажено в Китае. Первая партия уже \
             отправлена. Магазины принимают предзаказы. Покупатели оставили много отзывов.",
            "Сборная выиграла чемпионат. Решающий матч завершился со счётом три один. Тренер \
             похвалил игроков. Болельщики встретили команду в аэропорту. Капитан поднял кубок. \
             Президент поздравил спортсменов. Следующий турнир пройдёт через два года.",
        ];
        base.iter()
            .enumerate()
            .map(|(i, t)| {
                let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
                Text {
                    name: format!("book_{i}.txt"),
                    split: "dev".into(),
                    sentences: split_sentences(&text),
                    text,
                }
            })
            .collect()
    }

    #[test]
    fn benchmark_is_deterministic_and_truth_points_at_the_passages() {
        let texts = corpus();
        let syn = synonymizer();
        let a = build(&texts, &Kind::ALL, &syn);
        let b = build(&texts, &Kind::ALL, &syn);
        assert_eq!(a, b);
        // Every text has six sentences or more: one pair per kind each.
        assert_eq!(a.len(), 3 * Kind::ALL.len());
        let by_name: HashMap<&str, &Text> = texts.iter().map(|t| (t.name.as_str(), t)).collect();
        for p in &a {
            let src = &by_name[p.source.as_str()].text;
            match p.kind {
                Kind::None => assert!(p.truth.is_empty()),
                Kind::Verbatim => {
                    assert!(!p.truth.is_empty());
                    for (d, s) in &p.truth {
                        assert_eq!(&p.draft[d.clone()], &src[s.clone()]);
                    }
                }
                _ => assert!(!p.truth.is_empty()),
            }
        }
    }
}
