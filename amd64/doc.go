// Package amd64 is the bottom of son's x86-64 backend: the machine
// instruction form (one Inst struct and an op table, as Go's
// cmd/compile/internal/ssa has one Value and opcodeTable), its printer in
// Intel syntax, the encoder to bytes, an assembler that resolves labels
// and picks short branches, and the runtime that wraps a program into a
// standalone executable (package son/elf writes the file).
//
// The encoder is checked against an independent decoder,
// golang.org/x/arch/x86/x86asm, in a table test and a fuzz target
// (encode_test.go, fuzz_test.go).
package amd64
