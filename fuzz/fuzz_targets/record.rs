//! The `record` target: see `djambi_core::fuzzing::record` and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| djambi_core::fuzzing::record(data));
