//go:build !purego

#include "textflag.h"

// The errors a pair of bytes (the one before, then this one) can make,
// one bit each. Every table entry holds the errors its index allows, so
// the AND of the three lookups is the set the pair really makes.
//
//   0x01  lead byte (C0–FF) not followed by a continuation byte (80–BF)
//   0x02  continuation byte after ASCII
//   0x04  E0 then 80–9F: a three-byte form of a code point below U+0800
//   0x08  F4 then 90–BF, or F5–FF then 90–BF: above U+10FFFF
//   0x10  ED then A0–BF: a surrogate half
//   0x20  C0 or C1 then a continuation: a two-byte form of ASCII
//   0x40  F0 then 80–8F (a four-byte form below U+10000), or F5–FF then
//         80–8F (above U+10FFFF); both need high half F and then 8
//   0x80  continuation byte after a continuation byte: not an error by
//         itself; the main loop compares it with where one must be

// Indexed by the high half of the byte before.
DATA utf8PrevHigh<>+0(SB)/8, $0x0202020202020202 // 0–7: ASCII
DATA utf8PrevHigh<>+8(SB)/8, $0x4915012180808080 // 8–B: continuation; C, D, E, F: leads
GLOBL utf8PrevHigh<>(SB), RODATA|NOPTR, $16

// Indexed by the low half of the byte before.
DATA utf8PrevLow<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8PrevLow<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utf8PrevLow<>(SB), RODATA|NOPTR, $16

// Indexed by the high half of the byte itself.
DATA utf8ThisHigh<>+0(SB)/8, $0x0101010101010101 // 0–7: ASCII
DATA utf8ThisHigh<>+8(SB)/8, $0x01010101babaaee6 // 8, 9, A, B: continuation; C–F: leads
GLOBL utf8ThisHigh<>(SB), RODATA|NOPTR, $16

// A block whose byte exceeds this one in some place ends inside a
// sequence: a byte F0 or more 3 places from the end, E0 or more 2 from it,
// C0 or more in the last place.
DATA utf8OpenAtEnd<>+0(SB)/8, $0xffffffffffffffff
DATA utf8OpenAtEnd<>+8(SB)/8, $0xbfdfefffffffffff
GLOBL utf8OpenAtEnd<>(SB), RODATA|NOPTR, $16

// CHECK adds to X14 the errors of the block in X0, preceded by the block in
// X15, and leaves in X13 whether the block ends inside a sequence and in
// X15 the block itself. It uses X1–X4. In order: the byte before each byte
// (PALIGNR 15) gives two table lookups, by its high and its low half; the
// byte itself gives the third; the bytes two and three before, less E0-80
// and F0-80 without going below zero, are 80 or more where they are E0 or
// more and F0 or more, which is where a continuation byte must follow a
// continuation byte. XOR with the lookups' bit 80 leaves 80 where that is
// not so, and the other bits where a pair is wrong.
#define CHECK \
	MOVOU    X0, X1       \
	PALIGNR  $15, X15, X1 \
	MOVOU    X1, X2       \
	PSRLW    $4, X2       \
	PAND     X12, X2      \
	MOVOU    X11, X3      \
	PSHUFB   X2, X3       \
	PAND     X12, X1      \
	MOVOU    X10, X4      \
	PSHUFB   X1, X4       \
	PAND     X4, X3       \
	MOVOU    X0, X2       \
	PSRLW    $4, X2       \
	PAND     X12, X2      \
	MOVOU    X9, X4       \
	PSHUFB   X2, X4       \
	PAND     X4, X3       \
	MOVOU    X0, X1       \
	PALIGNR  $14, X15, X1 \
	PSUBUSB  X7, X1       \
	MOVOU    X0, X2       \
	PALIGNR  $13, X15, X2 \
	PSUBUSB  X6, X2       \
	POR      X2, X1       \
	PAND     X5, X1       \
	PXOR     X1, X3       \
	POR      X3, X14      \
	MOVOU    X0, X13      \
	PSUBUSB  X8, X13      \
	MOVOU    X0, X15

// func validUTF8SSSE3(p *byte, n int, last *[16]byte) bool
TEXT ·validUTF8SSSE3(SB), NOSPLIT, $0-25
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ last+16(FP), DX

	MOVQ $0x8080808080808080, AX
	MOVQ AX, X5
	PUNPCKLQDQ X5, X5
	MOVQ $0x7070707070707070, AX // F0 - 80
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6
	MOVQ $0x6060606060606060, AX // E0 - 80
	MOVQ AX, X7
	PUNPCKLQDQ X7, X7
	MOVOU utf8OpenAtEnd<>(SB), X8
	MOVOU utf8ThisHigh<>(SB), X9
	MOVOU utf8PrevLow<>(SB), X10
	MOVOU utf8PrevHigh<>(SB), X11
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12
	PXOR X13, X13 // the block before ends inside a sequence
	PXOR X14, X14 // errors so far
	PXOR X15, X15 // the block before: as if ASCII

pair:
	CMPQ CX, $32
	JLT  single
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU X0, X2
	POR   X1, X2
	PMOVMSKB X2, AX
	TESTL AX, AX
	JNZ   pairnotascii
	// ASCII: right unless the block before needed more. After ASCII the
	// block before counts as zero bytes, which read as ASCII too.
	POR   X13, X14
	PXOR  X13, X13
	PXOR  X15, X15
	ADDQ  $32, SI
	SUBQ  $32, CX

	// If there is one run of ASCII there are likely more: look for the
	// end of it 64 bytes at a time, then go back to 32.
ascii:
	CMPQ CX, $64
	JLT  pair
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	POR   X1, X0
	POR   X3, X2
	POR   X2, X0
	PMOVMSKB X0, AX
	TESTL AX, AX
	JNZ   pair
	ADDQ  $64, SI
	SUBQ  $64, CX
	JMP   ascii

pairnotascii:
	CHECK
	MOVOU 16(SI), X0
	CHECK
	ADDQ  $32, SI
	SUBQ  $32, CX
	JMP   pair

single:
	TESTQ CX, CX
	JZ    last
	MOVOU (SI), X0
	CHECK

last:
	// The padded copy of the tail, or 16 zero bytes. It ends in zero bytes
	// unless it is a whole 16 bytes of input, which cannot happen, so a
	// sequence open at the end of the input is caught inside it.
	MOVOU (DX), X0
	CHECK
	POR      X13, X14
	PXOR     X0, X0
	PCMPEQB  X14, X0
	PMOVMSKB X0, AX
	CMPL     AX, $0xffff
	SETEQ    ret+24(FP)
	RET
