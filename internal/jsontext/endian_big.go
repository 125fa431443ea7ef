//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package jsontext

// littleEndian says that a word loaded from memory holds its first byte
// lowest, the order the eight-byte tests read (escapeWord).
const littleEndian = false
