//! The `client_frame` target: see `djambi_server::fuzzing::client_frame` and docs/FUZZING.md.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| djambi_server::fuzzing::client_frame(data));
