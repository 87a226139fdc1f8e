//! The `turn_text` target: see `djambi_core::fuzzing::turn_text` and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| djambi_core::fuzzing::turn_text(data));
