#ifndef VERIFIERD_FUZZER_DRIVER_H
#define VERIFIERD_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs that have their own main (compiler-rt, FuzzerInterface.h).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

/// Runs libFuzzer on `test_one_input` with the program's arguments (libFuzzer flags, corpus folders).
int verifierd_fuzz_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
