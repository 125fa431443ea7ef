//go:build !purego

#include "textflag.h"

// func asciiKinds(p *byte, blocks int, out *uint64, wide bool)
//
// See asciiKinds in boundkinds_amd64.go. SSE2, which every amd64
// processor has, or AVX2 when wide is set, 32 bytes an instruction. Each class is a range, tested with one signed compare:
// adding 0x80 minus the range's first byte moves the range to the
// bottom of the signed bytes, -128 up, and what lies below -128 plus its
// length is in it. A byte of 0x80 or more lands at -48 or above, or
// wraps to a positive byte: none of the ranges takes it.
// KINDS16 classes the 16 bytes at off(SI): it ORs their bits, shifted left
// by sh, into R9 (letters), R10 (digits) and R11 (spaces), and ORs the
// bytes into X7, whose top bits then tell whether any byte was 0x80 or
// more.
#define KINDS16(off, sh) \
	MOVOU off(SI), X0 \
	POR  X0, X7 \
	MOVOU X0, X1 \
	POR  X8, X1 \
	PADDB X9, X1 \
	MOVOU X10, X2 \
	PCMPGTB X1, X2 \
	PMOVMSKB X2, AX \
	SHLQ $sh, AX \
	ORQ  AX, R9 \
	MOVOU X0, X1 \
	PADDB X11, X1 \
	MOVOU X12, X2 \
	PCMPGTB X1, X2 \
	PMOVMSKB X2, AX \
	SHLQ $sh, AX \
	ORQ  AX, R10 \
	MOVOU X0, X1 \
	PADDB X13, X1 \
	MOVOU X14, X2 \
	PCMPGTB X1, X2 \
	PCMPEQB X8, X0 \
	POR  X0, X2 \
	PMOVMSKB X2, AX \
	SHLQ $sh, AX \
	ORQ  AX, R11

// BROADCAST sets every byte of X to the byte b.
#define BROADCAST(b, X) \
	MOVQ $(b*0x0101010101010101), AX \
	MOVQ AX, X \
	PUNPCKLQDQ X, X

TEXT ·asciiKinds(SB), NOSPLIT, $0-25
	MOVQ p+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	CMPB wide+24(FP), $0
	JNE  wide

	BROADCAST(0x20, X8)  // the case bit, and the space
	BROADCAST(0x1f, X9)  // 0x61 'a', its case bit set, to -128
	BROADCAST(0x9a, X10) // -128 + 26 letters
	BROADCAST(0x50, X11) // 0x30 '0' to -128
	BROADCAST(0x8a, X12) // -128 + 10 digits
	BROADCAST(0x77, X13) // 0x09 '\t' to -128
	BROADCAST(0x85, X14) // -128 + 5 spaces, 0x09 to 0x0D

block:
	TESTQ CX, CX
	JLE  done
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	PXOR X7, X7
	KINDS16(0, 0)
	KINDS16(16, 16)
	KINDS16(32, 32)
	KINDS16(48, 48)
	PMOVMSKB X7, AX
	MOVQ R9, 0(DI)
	MOVQ R10, 8(DI)
	MOVQ R11, 16(DI)
	MOVQ AX, 24(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JMP  block

done:
	RET

// RANGE32 classes the 64 bytes in src0 and src1 as KINDS16 does: add
// to each byte, compare with the range's top; the bits are Y2's and Y3's
// top bits.
#define RANGE32(src0, src1, add, top) \
	VPADDB add, src0, Y2 \
	VPADDB add, src1, Y3 \
	VPCMPGTB Y2, top, Y2 \
	VPCMPGTB Y3, top, Y3

// MASK64 stores the 64 top bits of Y2 and Y3 at off(DI).
#define MASK64(off) \
	VPMOVMSKB Y2, AX \
	VPMOVMSKB Y3, BX \
	SHLQ $32, BX \
	ORQ  BX, AX \
	MOVQ AX, off(DI)

// WIDE_RANGES sets Y8 to Y14 to the bytes of KINDS16's X8 to X14, for the
// AVX2 steps.
#define WIDE_RANGES \
	BROADCAST(0x20, X8) \
	VPBROADCASTQ X8, Y8 \
	BROADCAST(0x1f, X9) \
	VPBROADCASTQ X9, Y9 \
	BROADCAST(0x9a, X10) \
	VPBROADCASTQ X10, Y10 \
	BROADCAST(0x50, X11) \
	VPBROADCASTQ X11, Y11 \
	BROADCAST(0x8a, X12) \
	VPBROADCASTQ X12, Y12 \
	BROADCAST(0x77, X13) \
	VPBROADCASTQ X13, Y13 \
	BROADCAST(0x85, X14) \
	VPBROADCASTQ X14, Y14

// KINDS64 loads the 64 bytes at SI into Y0 and Y1 and stores their
// letters, digits and spaces at 0, 8 and 16(DI); Y4 and Y5 are left
// holding the compare of each byte with the space.
#define KINDS64 \
	VMOVDQU 0(SI), Y0 \
	VMOVDQU 32(SI), Y1 \
	VPOR Y8, Y0, Y4 \
	VPOR Y8, Y1, Y5 \
	RANGE32(Y4, Y5, Y9, Y10) \
	MASK64(0) \
	RANGE32(Y0, Y1, Y11, Y12) \
	MASK64(8) \
	RANGE32(Y0, Y1, Y13, Y14) \
	VPCMPEQB Y8, Y0, Y4 \
	VPCMPEQB Y8, Y1, Y5 \
	VPOR Y4, Y2, Y2 \
	VPOR Y5, Y3, Y3 \
	MASK64(16)

wide:
	WIDE_RANGES

wideBlock:
	TESTQ CX, CX
	JLE  wideDone
	KINDS64 // letters, digits and spaces
	VPOR Y0, Y1, Y4 // bytes of 0x80 or more
	VPMOVMSKB Y4, AX
	MOVQ AX, 24(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JMP  wideBlock

wideDone:
	VZEROUPPER
	RET

// func pieceKinds(p *byte, blocks int, out *uint64)
//
// See pieceKinds in boundkinds_amd64.go: AVX2 only. The letters, digits
// and spaces are asciiKinds's (KINDS64); the bytes of 0x80 or more are
// their own top bits, and the line feeds, spaces, and carriage returns and
// quotes each a compare.
TEXT ·pieceKinds(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	WIDE_RANGES
	BROADCAST(0x0a, X15) // '\n'
	VPBROADCASTQ X15, Y15
	BROADCAST(0x0d, X6) // '\r'
	VPBROADCASTQ X6, Y6
	BROADCAST(0x27, X7) // '\''
	VPBROADCASTQ X7, Y7

pieceBlock:
	TESTQ CX, CX
	JLE  pieceDone
	KINDS64
	VPMOVMSKB Y4, AX // spaces
	VPMOVMSKB Y5, BX
	SHLQ $32, BX
	ORQ  BX, AX
	MOVQ AX, 40(DI)
	VPMOVMSKB Y0, AX // bytes of 0x80 or more
	VPMOVMSKB Y1, BX
	SHLQ $32, BX
	ORQ  BX, AX
	MOVQ AX, 24(DI)
	VPCMPEQB Y15, Y0, Y2 // line feeds
	VPCMPEQB Y15, Y1, Y3
	MASK64(32)
	VPCMPEQB Y6, Y0, Y2 // carriage returns and quotes
	VPCMPEQB Y6, Y1, Y3
	VPCMPEQB Y7, Y0, Y4
	VPCMPEQB Y7, Y1, Y5
	VPOR Y4, Y2, Y2
	VPOR Y5, Y3, Y3
	MASK64(48)
	MOVQ $0, 56(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JMP  pieceBlock

pieceDone:
	VZEROUPPER
	RET

// func blockRules(kinds *uint64, blocks int, starts *uint64) uint32
//
// See blockRulesGo in blocks.go, whose steps these are, each block's words
// read from kinds (the block before at -64(SI), the block after at
// 64(SI)); the prefixes of a block are kept in its eighth word for the
// block after it.
TEXT ·blockRules(SB), NOSPLIT, $0-28
	MOVQ kinds+0(FP), SI
	MOVQ blocks+8(FP), R8
	MOVQ starts+16(FP), DI
	XORL CX, CX
	XORL BX, BX
	ADDQ $64, SI

rulesBlock:
	CMPQ CX, R8
	JGE  rulesDone
	// bad: a byte of 0x80 or more, a carriage return or a quote in the
	// block or the one before, a byte of 0x80 or more first in the next.
	MOVQ 24(SI), AX
	ORQ  48(SI), AX
	ORQ  -40(SI), AX
	ORQ  -16(SI), AX
	MOVQ 88(SI), DX
	ANDQ $1, DX
	ORQ  DX, AX
	// ... or white space next to white space (SHLQ $1, R, X is x<<1 |
	// r>>63; SHRQ $1, R, X is x>>1 | r<<63).
	MOVQ 16(SI), R9 // s
	MOVQ -48(SI), R10
	MOVQ R9, DX
	SHLQ $1, R10, DX
	MOVQ 80(SI), R10
	MOVQ R9, R11
	SHRQ $1, R10, R11
	ORQ  R11, DX
	ANDQ R9, DX
	ORQ  DX, AX
	// ... or four digits in a row.
	MOVQ 8(SI), R10 // d
	MOVQ -56(SI), R11
	MOVQ R10, DX // dPrev
	SHLQ $1, R11, DX
	MOVQ DX, R13
	ANDQ R10, R13
	MOVQ R10, R12
	SHLQ $2, R11, R12
	ANDQ R12, R13
	MOVQ R10, R12
	SHLQ $3, R11, R12
	ANDQ R12, R13
	ORQ  R13, AX
	TESTQ AX, AX
	JEQ  rulesStarts
	BTSQ CX, BX

rulesStarts:
	MOVQ 0(SI), R11 // l
	MOVQ R11, R12 // o
	ORQ  R10, R12
	ORQ  R9, R12
	NOTQ R12
	NOTQ DX // digits after a byte that is not a digit
	ANDQ R10, DX
	MOVQ DX, R13
	MOVQ -64(SI), R15 // the other before: ^(pl|pd|ps)
	ORQ  -56(SI), R15
	ORQ  -48(SI), R15
	NOTQ R15
	MOVQ R12, R10 // oPrev
	SHLQ $1, R15, R10
	MOVQ 40(SI), R15 // spPrev
	MOVQ -24(SI), DX
	SHLQ $1, DX, R15
	MOVQ R10, DX // other after neither other nor space
	ORQ  R15, DX
	NOTQ DX
	ANDQ R12, DX
	ORQ  DX, R13
	MOVQ R11, AX // lNext
	MOVQ 64(SI), R15
	SHRQ $1, R15, AX
	ANDQ AX, DX // prefix
	MOVQ 32(SI), R15
	NOTQ R15
	ANDQ R9, R15
	ANDQ AX, R15
	ORQ  R15, DX
	MOVQ DX, 56(SI)
	ORQ  DX, R13
	MOVQ R11, AX // letters after neither a letter nor their prefix
	MOVQ -64(SI), R15
	SHLQ $1, R15, AX
	MOVQ DX, R12
	MOVQ -8(SI), R15
	SHLQ $1, R15, R12
	ORQ  R12, AX
	NOTQ AX
	ANDQ R11, AX
	ORQ  AX, R13
	MOVQ 32(SI), AX // white space but a line feed after other
	ANDQ R10, AX
	NOTQ AX
	ANDQ R9, AX
	ORQ  AX, R13
	MOVQ R13, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	INCQ CX
	JMP  rulesBlock

rulesDone:
	MOVL BX, ret+24(FP)
	RET
