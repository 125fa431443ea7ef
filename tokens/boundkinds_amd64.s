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

wide:
	BROADCAST(0x20, X8)
	VPBROADCASTQ X8, Y8
	BROADCAST(0x1f, X9)
	VPBROADCASTQ X9, Y9
	BROADCAST(0x9a, X10)
	VPBROADCASTQ X10, Y10
	BROADCAST(0x50, X11)
	VPBROADCASTQ X11, Y11
	BROADCAST(0x8a, X12)
	VPBROADCASTQ X12, Y12
	BROADCAST(0x77, X13)
	VPBROADCASTQ X13, Y13
	BROADCAST(0x85, X14)
	VPBROADCASTQ X14, Y14

wideBlock:
	TESTQ CX, CX
	JLE  wideDone
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPOR Y8, Y0, Y4 // letters
	VPOR Y8, Y1, Y5
	RANGE32(Y4, Y5, Y9, Y10)
	MASK64(0)
	RANGE32(Y0, Y1, Y11, Y12) // digits
	MASK64(8)
	RANGE32(Y0, Y1, Y13, Y14) // spaces
	VPCMPEQB Y8, Y0, Y4
	VPCMPEQB Y8, Y1, Y5
	VPOR Y4, Y2, Y2
	VPOR Y5, Y3, Y3
	MASK64(16)
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
