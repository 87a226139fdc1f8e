//! The `http_bodies` target: see `djambi_server::fuzzing::http_bodies` and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| djambi_server::fuzzing::http_bodies(data));
