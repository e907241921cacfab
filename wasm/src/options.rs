//! Options objects from JavaScript, read by serde straight into the engine's types: a JS
//! `CheckOptions` is the engine's [`CheckOptions`] (camelCase, its defaults from `Default`) plus
//! [`TextFormat`]; a JS `CheckerOptions` is [`JsParams`] plus [`TextLimit`]. Every field list is
//! serde's own ([`field_names`]), so a field exists once, in its Rust type; a test checks the
//! `.d.ts` interfaces against them (names and documented defaults).
//!
//! What serde-wasm-bindgen does not do, done here: it reads only the names a type has, so a
//! misspelt one would pass silently: names are checked first (`invalid_option`, "unknown field
//! `x`, expected one of …"); and a field set to `undefined` or `null` means its default, as a
//! missing one does.

use crate::{js_type, to_js, ThrownError};
use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, Serialize};
use uniqcheck::{CheckOptions, Error, Exclusions, Format, Params};
use wasm_bindgen::prelude::*;

/// What a JS `CheckOptions` holds besides the engine's [`CheckOptions`]: how the text is written.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct TextFormat {
    pub(crate) format: Format,
}

/// The engine parameters as JavaScript names them: `EngineParams`, and the parameters of a
/// `CheckerOptions`. camelCase, where `manifest.json` keeps serde's names of [`Params`]
/// (`stop_words`): the pack format's names are not JavaScript's, so this is the one type besides
/// [`Params`] that lists them.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct JsParams {
    n: usize,
    w: usize,
    k: usize,
    stop_words: bool,
    stemming: bool,
}

impl From<Params> for JsParams {
    fn from(p: Params) -> JsParams {
        let Params {
            n,
            w,
            k,
            stop_words,
            stemming,
        } = p;
        JsParams {
            n,
            w,
            k,
            stop_words,
            stemming,
        }
    }
}

impl From<JsParams> for Params {
    fn from(p: JsParams) -> Params {
        let JsParams {
            n,
            w,
            k,
            stop_words,
            stemming,
        } = p;
        Params {
            n,
            w,
            k,
            stop_words,
            stemming,
        }
    }
}

/// What a JS `CheckerOptions` holds besides the engine parameters: the largest text the checker
/// takes (the engine's [`CheckOptions::max_text_bytes`], which a check's options cannot raise).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct TextLimit {
    pub(crate) max_text_bytes: Option<usize>,
}

/// The name under which a JS `CheckOptions` gives [`CheckOptions::max_candidates`]: a checker
/// over packs has its own default for it when not given ([`uniqcheck::index::packs::PACK_MAX_CANDIDATES`]).
pub(crate) const MAX_CANDIDATES: &str = "maxCandidates";

/// The names serde reads for `T` (a struct), as JavaScript writes them: the list serde's derive
/// hands to `Deserializer::deserialize_struct`, caught by a deserializer that reads nothing else.
/// Skipped fields are not in it, renamed ones are under their new names.
pub(crate) fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// The deserializer of [`field_names`]: it keeps a struct's field names and stops.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("field names read"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The field names of a JS `CheckOptions`.
pub(crate) fn check_option_names() -> Vec<&'static str> {
    [field_names::<TextFormat>(), field_names::<CheckOptions>()].concat()
}

/// The field names of a JS `CheckerOptions`.
pub(crate) fn checker_option_names() -> Vec<&'static str> {
    [field_names::<JsParams>(), field_names::<TextLimit>()].concat()
}

/// A JS options object, checked: `None` for `undefined` and `null` (all defaults); otherwise a
/// plain object holding the fields `value` gives among `fields` (read as serde-wasm-bindgen reads
/// them, inherited ones included), but none set to `undefined` or `null`.
///
/// Errors: `invalid_argument` when `value` is not an object; `invalid_option` for a name of its
/// own (or, for each `(field, names)` of `nested`, of the object its `field` holds) that is not
/// one of `fields` (`names`), or a `nested` field that holds no object (`exclude: "a.ru"`).
pub(crate) fn options_object(
    value: Option<JsValue>,
    name: &str,
    fields: &[&str],
    nested: &[(&str, &[&str])],
) -> Result<Option<js_sys::Object>, ThrownError> {
    let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(None);
    };
    let Some(object) = value.dyn_ref::<js_sys::Object>() else {
        return Err(ThrownError::new(
            Error::INVALID_ARGUMENT,
            format!("{name} must be an object, not {}", js_type(&value)),
        ));
    };
    let known = |object: &js_sys::Object, name: &str, fields: &[&str]| {
        for key in js_sys::Object::keys(object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !fields.contains(&key.as_str()) {
                return Err(ThrownError::new(
                    Error::INVALID_OPTION,
                    format!(
                        "invalid {name}: unknown field `{key}`, expected one of {}",
                        fields.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    };
    known(object, name, fields)?;
    let given = js_sys::Object::new();
    for field in fields {
        let key = JsValue::from_str(field);
        let v = js_sys::Reflect::get(object, &key).unwrap_or(JsValue::UNDEFINED);
        if v.is_undefined() || v.is_null() {
            continue;
        }
        if let Some((_, names)) = nested.iter().find(|(n, _)| n == field) {
            // A list is an object too, whose keys would be reported as unknown fields ("0").
            match v.dyn_ref::<js_sys::Object>() {
                Some(inner) if !js_sys::Array::is_array(&v) => {
                    known(inner, &format!("{name}.{field}"), names)?
                }
                _ => {
                    return Err(ThrownError::new(
                        Error::INVALID_OPTION,
                        format!("{field} must be an object (got {})", describe(&v)),
                    ))
                }
            }
        }
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&given, &key, &v);
    }
    Ok(Some(given))
}

/// `T` read from a checked options object ([`options_object`]), or `invalid_option` in the
/// caller's words: the field by its path, what it must be and what it is
/// (`exclude.domains must be a list (got the string "a.ru")`). What it must be is serde's
/// (the type it expected, [`expected`]) or, where the reader failed before serde could say
/// (a list given a string: JavaScript's own `TypeError`), the shape of the field in
/// `defaults`, the options' defaults as JavaScript sees them.
pub(crate) fn read<T: DeserializeOwned>(
    object: &JsValue,
    name: &str,
    defaults: Option<&JsValue>,
) -> Result<T, ThrownError> {
    let de = serde_wasm_bindgen::Deserializer::from(object.clone());
    serde_path_to_error::deserialize(de).map_err(|e| {
        let segments: Vec<String> = e.path().iter().map(ToString::to_string).collect();
        let path = e.path().to_string();
        // The message alone: the error's Display is a JS `toString`, "Error: …".
        let error: JsValue = e.into_inner().into();
        let reason = match error.dyn_ref::<js_sys::Error>() {
            Some(error) => String::from(error.message()),
            None => format!("{error:?}"),
        };
        let given = value_at(object, &segments);
        let must =
            expected(&reason).or_else(|| defaults.and_then(|d| value_at(d, &segments)).map(shape));
        let message = match (must, given) {
            (Some(must), Some(given)) if !segments.is_empty() => {
                format!("{path} must be {must} (got {})", describe(&given))
            }
            _ if segments.is_empty() => format!("invalid {name}: {reason}"),
            _ => format!("invalid {name}: {path}: {reason}"),
        };
        ThrownError::new(Error::INVALID_OPTION, message)
    })
}

/// The value under `segments` (field names, and `[i]` for list items) in `value`, if there is one.
fn value_at(value: &JsValue, segments: &[String]) -> Option<JsValue> {
    let mut v = value.clone();
    for segment in segments {
        // Reflect.get throws on a primitive: only objects are looked into.
        if !v.is_object() {
            return None;
        }
        let key = match segment.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            Some(index) => JsValue::from_f64(index.parse::<f64>().ok()?),
            None => JsValue::from_str(segment),
        };
        v = js_sys::Reflect::get(&v, &key).ok()?;
    }
    Some(v)
}

/// What serde expected, in words, from its "invalid type: …, expected …" reason.
pub(crate) fn expected(reason: &str) -> Option<String> {
    let rest = reason.strip_prefix("invalid type: ")?;
    let (_, what) = rest.rsplit_once(", expected ")?;
    let words = match what {
        "usize" | "u8" | "u16" | "u32" | "u64" => "a whole number, 0 or more",
        "isize" | "i8" | "i16" | "i32" | "i64" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a sequence" => "a list",
        "a string" | "a borrowed string" => "a string",
        s if s.starts_with("struct ") => "an object",
        s if s.starts_with("an array of length ") => {
            return Some(format!("a list of {}", &s["an array of length ".len()..]) + " items")
        }
        other => return Some(other.to_owned()),
    };
    Some(words.to_owned())
}

/// What a default value is, in words: the type a field must have.
fn shape(value: JsValue) -> String {
    let words = if js_sys::Array::is_array(&value) {
        "a list"
    } else if value.as_bool().is_some() {
        "true or false"
    } else if let Some(n) = value.as_f64() {
        if n.fract() == 0.0 {
            "a whole number"
        } else {
            "a number"
        }
    } else if value.is_string() {
        "a string"
    } else {
        "an object"
    };
    words.to_owned()
}

/// A given value in words: `the string "4"`, `the number 4.5`, `true`, `a list`, `an object`.
fn describe(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        // Long enough to recognise, short enough for a message.
        let shown: String = s.chars().take(40).collect();
        let more = if shown.len() < s.len() { "…" } else { "" };
        return format!("the string {shown:?}{more}");
    }
    if let Some(b) = value.as_bool() {
        return b.to_string();
    }
    if let Some(n) = value.as_f64() {
        return format!("the number {n}");
    }
    if js_sys::Array::is_array(value) {
        return "a list".to_owned();
    }
    match js_type(value).as_str() {
        "object" => "an object".to_owned(),
        "null" | "undefined" | "bigint" | "symbol" => format!("a {}", js_type(value)),
        other => format!("a {other}"),
    }
}

/// A JS `CheckerOptions`: the engine parameters (`base`'s where not given) and the text limit.
pub(crate) fn checker_options(
    value: Option<JsValue>,
    base: Params,
) -> Result<(Params, Option<usize>), ThrownError> {
    const NAME: &str = "CheckerOptions";
    let Some(given) = options_object(value, NAME, &checker_option_names(), &[])? else {
        return Ok((base, None));
    };
    // The parameters given over `base`'s, read as one `JsParams`.
    let params = to_js(&JsParams::from(base))?;
    let params: js_sys::Object = params.unchecked_into();
    let merged = js_sys::Object::assign(&params, &given);
    let params: JsParams = read(&merged, NAME, None)?;
    let limit: TextLimit = read(&given, NAME, None)?;
    Ok((params.into(), limit.max_text_bytes))
}

/// A JS `CheckOptions`: the text's format and the engine's options (their defaults where not
/// given; [`CheckOptions::max_text_bytes`] is the checker's, set by the caller), and whether it
/// gave `maxCandidates`.
pub(crate) fn check_options(
    value: Option<JsValue>,
) -> Result<(Format, CheckOptions, bool), ThrownError> {
    const NAME: &str = "CheckOptions";
    let nested = [("exclude", field_names::<Exclusions>())];
    let Some(given) = options_object(value, NAME, &check_option_names(), &nested)? else {
        return Ok((Format::default(), CheckOptions::default(), false));
    };
    let defaults = to_js(&CheckOptions::default())?;
    let format: TextFormat = read(&given, NAME, None)?;
    let opts: CheckOptions = read(&given, NAME, Some(&defaults))?;
    let candidates = js_sys::Reflect::has(&given, &MAX_CANDIDATES.into()).unwrap_or(false);
    Ok((format.format, opts, candidates))
}

#[cfg(test)]
mod tests {
    //! The `.d.ts` against the Rust types: the interfaces' field names are serde's, in order, and
    //! every documented default ("Default 4.") is the value `Default` gives.
    use super::*;
    use uniqcheck::index::packs::PACK_MAX_CANDIDATES;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The fields of `interface name { … }` in `ts`, each with its documented default (the word
    /// after "Default " in its doc comment, without a closing `.` or `,`).
    fn interface(ts: &str, name: &str) -> Vec<(String, Option<String>)> {
        let start = ts
            .find(&format!("export interface {name} {{"))
            .unwrap_or_else(|| panic!("no interface {name}"));
        let body = &ts[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find("\n}").unwrap()];
        let mut fields = Vec::new();
        let mut doc = String::new();
        for line in body.lines().map(str::trim) {
            if line.starts_with("/**") || line.starts_with('*') {
                doc.push_str(line);
                doc.push(' ');
            } else if let Some((field, _)) = line.split_once(':') {
                let default = doc.split_once("Default ").map(|(_, rest)| {
                    let word = rest.split_whitespace().next().unwrap_or_default();
                    word.strip_suffix(['.', ',']).unwrap_or(word).to_owned()
                });
                fields.push((field.trim_end_matches('?').to_owned(), default));
                doc.clear();
            }
        }
        fields
    }

    /// `value`'s fields as JSON texts, by their JavaScript names.
    fn json_fields(value: &impl Serialize) -> Vec<(String, String)> {
        let js = to_js(value).unwrap();
        js_sys::Object::entries(js.unchecked_ref())
            .iter()
            .map(|pair| {
                let pair: js_sys::Array = pair.unchecked_into();
                let json = js_sys::JSON::stringify(&pair.get(1)).unwrap();
                (pair.get(0).as_string().unwrap(), String::from(json))
            })
            .collect()
    }

    /// Checks `ts`'s interface `name`: its field names are `names`, and each documented default
    /// is the JSON of the field in `defaults` (fields without a documented default: objects).
    fn check(ts: &str, name: &str, names: &[&str], defaults: &[(String, String)]) {
        let fields = interface(ts, name);
        let got: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(got, names, "the fields of {name} in the .d.ts");
        for (field, documented) in &fields {
            let Some(documented) = documented else {
                continue;
            };
            let value = defaults.iter().find(|(f, _)| f == field);
            let value = value.unwrap_or_else(|| panic!("{name}.{field}: no default in Rust"));
            assert_eq!(documented, &value.1, "{name}.{field}'s documented default");
        }
    }

    #[wasm_bindgen_test]
    fn the_typescript_options_are_the_rust_types() {
        let ts = crate::TYPES;
        let mut defaults = json_fields(&CheckOptions::default());
        defaults.extend(json_fields(&Exclusions::default()));
        defaults.push(("format".into(), "\"plain\"".into()));
        check(ts, "CheckOptions", &check_option_names(), &defaults);
        check(ts, "Exclusions", field_names::<Exclusions>(), &defaults);
        // Its documentation, as one line of words.
        let words: Vec<&str> = ts.split_whitespace().filter(|w| *w != "*").collect();
        let pack_default = format!("{PACK_MAX_CANDIDATES} for a checker over packs");
        assert!(
            words.join(" ").contains(&pack_default),
            "maxCandidates: {pack_default}"
        );
        assert!(check_option_names().contains(&MAX_CANDIDATES));
        assert!(
            !check_option_names().contains(&"maxTextBytes"),
            "the checker's"
        );

        let mut defaults = json_fields(&JsParams::from(Params::default()));
        let limit = CheckOptions::default().max_text_bytes;
        defaults.push(("maxTextBytes".into(), limit.to_string()));
        check(ts, "CheckerOptions", &checker_option_names(), &defaults);
        check(ts, "EngineParams", field_names::<JsParams>(), &[]);
    }
}
