//! The `dpn` target: see `djambi_core::fuzzing::dpn` and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| djambi_core::fuzzing::dpn(data));
