//! Behaviour a copywriter would recognise, through the public API only.

use uniqcheck::{
    compare, CheckOptions, Comparison, Corpus, Error, Format, Method, PairSpan, Params, SourceInfo,
};

const GARDEN: &str = "Осенью сад требует не меньше внимания, чем весной. Опавшие листья лучше не \
сжигать: из них получается отличный компост, который весной вернёт почве питательные вещества. \
Молодые деревья стоит укрыть мешковиной, чтобы мороз не повредил кору. Розы обрезают после первых \
заморозков, оставляя над землёй три или четыре почки. Луковицы тюльпанов высаживают до середины \
октября, пока земля ещё тёплая. Садовый инвентарь перед зимой нужно очистить от земли, просушить и \
смазать маслом, иначе к весне металл покроется ржавчиной";

const SOURCE_BEFORE: &str = "Дачный сезон заканчивается, но работы на участке хватает до самых \
холодов. Рассказываем, что успеть сделать, пока не выпал снег. ";
const SOURCE_AFTER: &str =
    ". Зимой стоит заглянуть на участок после сильных снегопадов и стряхнуть \
снег с веток хвойных кустарников, которые легко ломаются под его тяжестью.";

fn source_text() -> String {
    format!("{SOURCE_BEFORE}{GARDEN}{SOURCE_AFTER}")
}

/// `compare` of two plain texts with the default parameters.
fn compare_plain(a: &str, b: &str, opts: &CheckOptions) -> Comparison {
    compare(a, Format::Plain, b, Format::Plain, &Params::default(), opts).unwrap()
}

fn corpus_with(docs: &[(&str, &str)]) -> Corpus {
    let mut corpus = Corpus::new(Params::default()).unwrap();
    for (id, text) in docs {
        let info = SourceInfo {
            id: id.to_string(),
            url: format!("https://example.org/{id}"),
            title: id.to_string(),
        };
        corpus.add(info, text, Format::Plain, 1 << 24).unwrap();
    }
    corpus
}

/// Swaps some Cyrillic letters for their Latin twins and sprinkles zero-width spaces inside words.
fn disguise(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        let swapped = match c {
            'о' if i % 3 == 0 => 'o',
            'а' if i % 2 == 0 => 'a',
            'е' if i % 4 == 1 => 'e',
            'р' => 'p',
            'с' if i % 2 == 1 => 'c',
            'О' => 'O',
            other => other,
        };
        out.push(swapped);
        if i % 11 == 5
            && c.is_alphabetic()
            && text[text.char_indices().nth(i).unwrap().0..]
                .chars()
                .nth(1)
                .is_some_and(char::is_alphabetic)
        {
            out.push('\u{200B}');
        }
    }
    out
}

#[test]
fn disguised_copy_is_found_and_its_fragment_spans_exactly_the_copied_words() {
    let corpus = corpus_with(&[("garden", &source_text()), ("other", "Совсем другой текст о том, как выбрать велосипед для города и не переплатить за лишние функции.")]);
    let copied = disguise(GARDEN);
    assert_ne!(copied, GARDEN, "the disguise must change the text");
    assert!(copied.contains('\u{200B}') && copied.contains('p'));
    let intro = "Мой опыт садовода подсказывает простые правила, проверенные годами. ";
    let outro = ". А вот о поливе газона поговорим в следующей статье, там свои тонкости.";
    let draft = format!("{intro}{copied}{outro}");
    let report = corpus
        .check(&draft, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert_eq!(report.sources.len(), 1, "{:#?}", report.sources);
    assert_eq!(report.sources[0].info.id, "garden");
    assert_eq!(report.fragments.len(), 1, "{:#?}", report.fragments);
    let f = &report.fragments[0];
    assert_eq!(
        &draft[f.start..f.end],
        copied,
        "the fragment must span exactly the copied words"
    );
    assert!(
        report.uniqueness > 5.0 && report.uniqueness < 40.0,
        "uniqueness {}",
        report.uniqueness
    );
    // The source side points at the original paragraph.
    let [s, e] = report.sources[0].spans[0].source.unwrap();
    assert_eq!(&source_text()[s..e], GARDEN);
}

#[test]
fn reordered_sentences_and_changed_word_forms_are_still_found() {
    let corpus = corpus_with(&[("garden", &source_text())]);
    let sentences: Vec<&str> = GARDEN.split(". ").collect();
    let reordered = [
        sentences[4],
        sentences[2],
        sentences[5],
        sentences[0],
        sentences[3],
        sentences[1],
    ]
    .join(". ");
    let r = corpus
        .check(&reordered, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert!(r.uniqueness < 20.0, "reordered: {}", r.uniqueness);
    // The highlight is one stretch (every sentence is copied); the source's spans keep each moved
    // sentence apart, each pointing at its own place in the source.
    let spans = &r.sources[0].spans;
    assert!(
        spans.len() >= 5,
        "each moved sentence is its own pair span: {spans:#?}"
    );
    let in_draft_order: Vec<usize> = spans.iter().map(|s| s.source.unwrap()[0]).collect();
    let mut in_source_order = in_draft_order.clone();
    in_source_order.sort_unstable();
    assert_ne!(in_draft_order, in_source_order);

    // Cases and numbers changed: the stems stay, so the shingles do.
    let reworded = GARDEN
        .replace(
            "Молодые деревья стоит укрыть мешковиной",
            "Молодое дерево стоит укрыть мешковиной",
        )
        .replace(
            "Опавшие листья лучше не сжигать",
            "Опавшую листву лучше не сжигать",
        )
        .replace(
            "Луковицы тюльпанов высаживают",
            "Луковицу тюльпана высаживают",
        )
        .replace("после первых заморозков", "после первого заморозка")
        .replace("питательные вещества", "питательное вещество");
    let r = corpus
        .check(&reworded, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert_eq!(r.sources[0].info.id, "garden");
    assert!(r.uniqueness < 35.0, "reworded: {}", r.uniqueness);
}

#[test]
fn html_draft_spans_point_at_the_visible_words_in_the_original_markup() {
    let corpus = corpus_with(&[("garden", &source_text())]);
    let html = format!(
        "<!doctype html><html><head><title>Сад</title><style>p {{ color: red }}</style></head><body>\
         <h1>Мой сад</h1><p>Пишу о&nbsp;своём участке уже пятый год подряд, и вот что понял.</p>\
         <p>{}</p><script>var x = 'Осенью сад требует';</script><p>Конец заметки о личном опыте.</p></body></html>",
        GARDEN.replace("отличный компост", "<b>отличный</b> ком<i>пост</i>").replace("почки", "по&shy;чки")
    );
    let report = corpus
        .check(&html, Format::Html, &CheckOptions::default())
        .unwrap();
    assert_eq!(report.fragments.len(), 1, "{:#?}", report.fragments);
    let f = &report.fragments[0];
    let slice = &html[f.start..f.end];
    assert!(slice.starts_with("Осенью сад"), "{slice}");
    assert!(slice.ends_with("ржавчиной"), "{slice}");
    assert!(slice.contains("<b>отличный</b> ком<i>пост</i>"));
    assert!(!slice.contains("<script>"));
}

#[test]
fn unrelated_text_is_fully_unique_and_empty_text_is_an_error() {
    let corpus = corpus_with(&[("garden", &source_text())]);
    let unrelated =
        "Квантовые компьютеры используют кубиты, которые могут находиться в суперпозиции \
        состояний. Это позволяет решать некоторые задачи, например разложение больших чисел на \
        множители, быстрее классических машин. Однако кубиты хрупки: любое взаимодействие с \
        окружением разрушает квантовое состояние, поэтому инженеры охлаждают процессоры почти до \
        абсолютного нуля и придумывают коды коррекции ошибок.";
    let r = corpus
        .check(unrelated, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert_eq!(r.uniqueness, 100.0);
    assert!(r.fragments.is_empty() && r.sources.is_empty());
    for empty in ["", "   \n\t  ", "!!! ... ---", "<p>&nbsp;</p>"] {
        let format = if empty.starts_with('<') {
            Format::Html
        } else {
            Format::Plain
        };
        assert_eq!(
            corpus
                .check(empty, format, &CheckOptions::default())
                .unwrap_err(),
            Error::Empty,
            "{empty:?}"
        );
    }
    assert!(Error::Empty.to_string().contains("empty"));
}

#[test]
fn a_changed_word_in_a_copy_is_a_rewrite_between_two_copies_and_two_passages_stay_two() {
    let source = source_text();
    let sentences: Vec<&str> = GARDEN.split(". ").collect();
    // One passage, one word changed in the middle: one detection, copied word for word on both
    // sides of the changed word, which is the rewrite's, not the copy's.
    let edited = GARDEN.replace("мешковиной", "лутрасилом");
    let changed = edited.find("лутрасилом").unwrap();
    let changed = changed..changed + "лутрасилом".len();
    let c = compare_plain(&edited, &source, &CheckOptions::default());
    assert_eq!(c.detections.len(), 1, "{:#?}", c.detections);
    assert_eq!(c.fragments.len(), 2, "{:#?}", c.fragments);
    for f in &c.fragments {
        assert_eq!(
            inside(f.draft, changed.clone()).0,
            0,
            "{f:?} copies the changed word"
        );
    }
    assert!(
        c.rewrites
            .iter()
            .any(|r| inside(r.draft, changed.clone()).0 == changed.len()),
        "{:#?}",
        c.rewrites
    );
    assert!(c.uniqueness > 0.0 && c.originality == 0.0, "{c:#?}");
    // Two passages separated by a paragraph of new text.
    let two = format!(
        "{}. {}. Между ними я вставил совершенно новый абзац про собственную теплицу, помидоры, \
         огурцы, капельный полив и соседского кота, который любит спать на грядках. {}. {}.",
        sentences[0], sentences[1], sentences[4], sentences[5]
    );
    let c = compare_plain(&two, &source, &CheckOptions::default());
    assert_eq!(c.fragments.len(), 2, "{:#?}", c.fragments);
    assert!(c.containment > 0.3 && c.containment < 1.0);
}

#[test]
fn a_sentence_of_the_writers_own_between_copies_is_not_a_rewrite_for_two_shared_words() {
    let sentences: Vec<&str> = GARDEN.split(". ").collect();
    // Two of its three content words are the source's (roses, frosts): the topic, not a rewrite.
    let own = "У нас в этом году розы цвели до заморозков.";
    let draft = format!(
        "{}. {own} {}.",
        sentences[..3].join(". "),
        sentences[3..].join(". ")
    );
    let at = draft.find(own).unwrap();
    let own = at..at + own.len();
    let c = compare_plain(&draft, &source_text(), &CheckOptions::default());
    // One detection spans it (the copies on both sides are one passage) ...
    assert_eq!(c.detections.len(), 1, "{:#?}", c.detections);
    assert_eq!(inside(c.detections[0].draft, own.clone()).0, own.len());
    // ... and neither the copies nor the rewrites take it.
    for span in c.fragments.iter().chain(&c.rewrites) {
        assert_eq!(
            inside(span.draft, own.clone()).0,
            0,
            "{span:?} marks the own sentence"
        );
    }
}

#[test]
fn exact_duplicate_is_found_first_and_short_texts_use_the_short_method() {
    let corpus = corpus_with(&[
        ("garden", &source_text()),
        ("ad", "Продаю велосипед горный, алюминиевая рама, дисковые тормоза, двадцать семь скоростей, почти новый, торг уместен."),
    ]);
    let r = corpus
        .check(
            &source_text().to_uppercase(),
            Format::Plain,
            &CheckOptions::default(),
        )
        .unwrap();
    assert_eq!(r.method, Method::Exact);
    assert_eq!(r.uniqueness, 0.0);
    assert!(r.sources[0].exact);

    // A reworded classified ad: too short for shingles to agree, the longest words still do.
    let ad = "Почти новый горный велосипед: алюминиевая рама, тормоза дисковые, скоростей двадцать семь. Продаю, торг.";
    let r = corpus
        .check(ad, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert_eq!(r.method, Method::Short);
    assert_eq!(r.sources.first().map(|s| s.info.id.as_str()), Some("ad"));
    assert_eq!(r.uniqueness, 0.0);
    let fresh = "Куплю детскую коляску в хорошем состоянии, желательно светлого цвета, недорого.";
    let r = corpus
        .check(fresh, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert_eq!((r.method, r.uniqueness), (Method::Short, 100.0));
}

#[test]
fn binary_garbage_and_oversized_text_get_clear_errors() {
    let corpus = corpus_with(&[("garden", &source_text())]);
    let mut state = 0x1234_5678_u64;
    let bytes: Vec<u8> = (0..20_000)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 56) as u8
        })
        .collect();
    let garbage = String::from_utf8_lossy(&bytes);
    let err = corpus
        .check(&garbage, Format::Plain, &CheckOptions::default())
        .unwrap_err();
    assert!(matches!(err, Error::Binary { .. }), "{err:?}");
    assert!(err.to_string().contains("binary"));
    let opts = CheckOptions {
        max_text_bytes: 1000,
        ..Default::default()
    };
    let err = corpus
        .check(&"слово ".repeat(1000), Format::Plain, &opts)
        .unwrap_err();
    assert_eq!(
        err,
        Error::TooLarge {
            size: 11_000,
            limit: 1000
        }
    );
}

#[test]
fn a_source_known_only_by_its_record_is_found_with_draft_spans() {
    let params = Params::default();
    let info = SourceInfo {
        id: "garden".into(),
        url: "https://example.org/garden".into(),
        title: "Сад осенью".into(),
    };
    let doc =
        uniqcheck::Document::analyze(&source_text(), Format::Plain, &params, 1 << 20).unwrap();
    let mut from_record = Corpus::new(params).unwrap();
    assert_eq!(from_record.add_record(info.clone(), &doc), 0);
    let mut from_text = Corpus::new(params).unwrap();
    from_text.add_document(info, doc);

    let intro = "Мой опыт садовода подсказывает простые правила, проверенные годами. ";
    let outro = ". А вот о поливе газона поговорим в следующей статье, там свои тонкости.";
    let draft = format!("{intro}{GARDEN}{outro}");
    let opts = CheckOptions::default();
    let record = from_record.check(&draft, Format::Plain, &opts).unwrap();
    let full = from_text.check(&draft, Format::Plain, &opts).unwrap();
    assert_eq!(record.sources[0].info.title, "Сад осенью");
    assert!(record.sources[0].spans.iter().all(|s| s.source.is_none()));
    // The same alignment; only the widening over stop words at the ends needs the text.
    let (r, f) = (&record.fragments[0], &full.fragments[0]);
    assert!(r.start >= f.start && r.end <= f.end, "{r:?} within {f:?}");
    assert_eq!(record.uniqueness, full.uniqueness);
    assert_eq!(record.sources[0].resemblance, full.sources[0].resemblance);
}

const ARTICLE: &str =
    "Honey bees communicate the location of distant flowers through a waggle dance \
performed on the vertical comb inside the dark hive. The angle of the straight run relative to \
gravity encodes the direction of the food source relative to the sun, while the duration of the \
waggle phase encodes its distance. Forager bees returning with nectar repeat the dance many times, \
and recruits that follow the dancer closely learn the route before flying out. Researchers decoded \
this language in the twentieth century by moving feeding stations and watching how the dances \
changed.";

/// ARTICLE as a careless rewriter leaves it: synonyms swapped in, words dropped, phrases moved.
const REWORDED: &str = "Through a waggle dance done on the upright comb in the dark hive, honey \
bees tell others the location of faraway flowers. Relative to gravity, the angle of the straight \
run gives the direction of the food relative to the sun, and how long the waggle phase lasts gives \
its distance. Returning forager bees carrying nectar repeat the dance again and again; recruits \
following the dancer closely learn the route before they fly out. In the twentieth century \
scientists decoded this language by moving feeding stations and observing how dances changed.";

const OWN_BEFORE: &str = "My grandfather kept six hives behind the orchard, and every July we \
spun the frames in his cellar with a hand extractor that squeaked louder each year. ";
const OWN_AFTER: &str = " Last summer I finally built my own top-bar hive from pallet wood, \
painted it pale green, and set it facing south-east beside the raspberry canes.";

/// Bytes of `span` inside `passage` (a draft byte range), and bytes of `span`.
fn inside(span: [usize; 2], passage: std::ops::Range<usize>) -> (usize, usize) {
    let overlap = span[1]
        .min(passage.end)
        .saturating_sub(span[0].max(passage.start));
    (overlap, span[1] - span[0])
}

/// Bytes of `passage` under the draft sides of `spans`, summed (spans that overlap count twice).
fn covered(spans: &[PairSpan], passage: &std::ops::Range<usize>) -> usize {
    spans
        .iter()
        .map(|s| inside(s.draft, passage.clone()).0)
        .sum()
}

#[test]
fn a_reworded_passage_is_one_detection_found_whole() {
    let draft = format!("{OWN_BEFORE}{REWORDED}{OWN_AFTER}");
    let passage = OWN_BEFORE.len()..OWN_BEFORE.len() + REWORDED.len();
    let source = format!("From our series on insect behaviour. {ARTICLE}");
    let c = compare_plain(
        &draft,
        &source,
        &CheckOptions {
            short_threshold: 0,
            ..Default::default()
        },
    );
    assert_eq!(c.detections.len(), 1, "{:#?}", c.detections);
    let (overlap, len) = inside(c.detections[0].draft, passage.clone());
    assert!(
        overlap * 10 >= passage.len() * 8,
        "the detection covers {overlap} of the passage's {} bytes",
        passage.len()
    );
    assert!(
        overlap * 10 >= len * 9,
        "the detection reaches into own text"
    );
    // What is highlighted are exact copies only, all inside the passage.
    assert!(!c.fragments.is_empty());
    for f in &c.fragments {
        let (overlap, len) = inside(f.draft, passage.clone());
        assert_eq!(overlap, len, "{f:?} highlights the writer's own words");
    }
    // Exact copies alone (the fragments) cover only pieces of it.
    let covered = covered(&c.fragments, &passage);
    assert!(
        covered * 2 < passage.len(),
        "exact copies already cover {covered} of {} bytes",
        passage.len()
    );
}

#[test]
fn a_passage_the_source_repeats_is_detected_once() {
    let source = format!("{ARTICLE} {OWN_AFTER} {ARTICLE}");
    let draft = format!("{OWN_BEFORE}{ARTICLE}");
    let c = compare_plain(&draft, &source, &CheckOptions::default());
    assert_eq!(c.detections.len(), 1, "{:#?}", c.detections);
    let d = &c.detections[0];
    assert_eq!(
        &draft[d.draft[0]..d.draft[1]],
        ARTICLE.trim_end_matches('.'),
        "the detection spans the copy exactly"
    );
}

#[test]
fn same_topic_texts_without_reuse_have_no_detection() {
    let other = "Bumblebees, unlike honey bees, live in small annual colonies that die off in \
autumn, leaving only young queens to hibernate underground until spring. They do not dance; a \
returning forager excites her nestmates by running through the nest and leaving a scent behind, \
and the recruits then search for flowers on their own. Their larger bodies and ability to shiver \
their flight muscles let them fly in cold, wet weather when other bees stay at home, which is \
why farmers rent their colonies to pollinate greenhouse tomatoes.";
    let c = compare_plain(other, ARTICLE, &CheckOptions::default());
    assert!(c.detections.is_empty(), "{:#?}", c.detections);
    assert!(c.fragments.is_empty(), "{:#?}", c.fragments);
    assert_eq!(c.uniqueness, 100.0);
}

/// GARDEN rewritten as a copywriter would: sentences reordered, words swapped for synonyms, word
/// order changed, nothing left of it word for word but a phrase or two.
const GARDEN_REWRITTEN: &str = "Розы подрезают после первых заморозков, оставляя над почвой \
три-четыре почки. Опавшую листву не нужно сжигать: из неё выходит прекрасный компост, который \
весной вернёт земле питательные вещества. Сад осенью требует внимания не меньше, чем весной. \
Молодые деревья лучше укрыть мешковиной, чтобы кору не повредил мороз. Тюльпаны сажают до \
середины октября, пока почва ещё тёплая. Инвентарь для сада перед зимой следует очистить от \
земли, высушить и смазать маслом, иначе металл к весне покроется ржавчиной.";

const OWN_RU_BEFORE: &str = "В прошлом году я впервые провела всю осень на даче и записывала, \
что получилось, а что нет. ";
const OWN_RU_AFTER: &str = " Соседка советует ещё подкормить клубнику золой, но этого я пока не \
пробовала и ничего сказать не могу.";

#[test]
fn a_rewritten_passage_is_a_rewrite_not_a_copy() {
    let draft = format!("{OWN_RU_BEFORE}{GARDEN_REWRITTEN}{OWN_RU_AFTER}");
    let passage = OWN_RU_BEFORE.len()..OWN_RU_BEFORE.len() + GARDEN_REWRITTEN.len();
    let c = compare_plain(&draft, &source_text(), &CheckOptions::default());
    assert!(!c.rewrites.is_empty(), "{c:#?}");
    let rewritten = covered(&c.rewrites, &passage);
    let copied = covered(&c.fragments, &passage);
    assert!(
        (rewritten + copied) * 10 >= passage.len() * 7,
        "rewrites {rewritten} and copies {copied} of the passage's {} bytes",
        passage.len()
    );
    for r in &c.rewrites {
        let (overlap, len) = inside(r.draft, passage.clone());
        assert_eq!(overlap, len, "{r:?} marks the writer's own words");
        assert!(r.source.is_some(), "the source passage is known");
        for f in &c.fragments {
            assert!(
                f.draft[1] <= r.draft[0] || r.draft[1] <= f.draft[0],
                "{r:?} overlaps {f:?}"
            );
        }
    }
    assert!(
        c.originality + 30.0 < c.uniqueness,
        "{} vs {}",
        c.originality,
        c.uniqueness
    );
    // Own text on the same topic is neither.
    let own = format!("{OWN_RU_BEFORE}{OWN_RU_AFTER}");
    let c = compare_plain(
        &own,
        &source_text(),
        &CheckOptions {
            short_threshold: 0,
            ..Default::default()
        },
    );
    assert!(c.rewrites.is_empty() && c.fragments.is_empty(), "{c:#?}");
    assert_eq!(c.originality, 100.0);
}
