//go:build !purego

#include "textflag.h"

// func scanRowVector(p *byte, n int, marks *int32, maxMarks int, wide bool) (lf int, nmarks int, flags int)
//
// See scanRowVector in rowscan_amd64.go. With wide (the caller checks that
// the processor has AVX2 and BMI1) it first loads 64 bytes a step in the
// 256-bit registers while no LF turns up and 64 are left. Then, or at once
// without wide, it loads 32 bytes a step in SSE2 while no LF turns up and
// 32 are left, then 16 a step, the last load reaching up to 15 bytes past
// n: the caller guarantees they are readable. Blocks before the one holding
// the LF add their backslash, CR and high bytes to vector accumulators;
// only the last block's are cut at the LF (or at n).
TEXT ·scanRowVector(SB), NOSPLIT, $0-64
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	MOVQ marks+16(FP), DI
	MOVQ maxMarks+24(FP), R8

	MOVQ $0x0a0a0a0a0a0a0a0a, BX
	MOVQ BX, X10
	PUNPCKLQDQ X10, X10 // LF in every byte
	MOVQ $0x0909090909090909, BX
	MOVQ BX, X11
	PUNPCKLQDQ X11, X11 // TAB
	MOVQ $0x5c5c5c5c5c5c5c5c, BX
	MOVQ BX, X12
	PUNPCKLQDQ X12, X12 // backslash
	MOVQ $0x0d0d0d0d0d0d0d0d, BX
	MOVQ BX, X13
	PUNPCKLQDQ X13, X13 // CR
	PXOR X14, X14       // backslash or CR seen in whole blocks
	PXOR X15, X15       // high bytes seen in whole blocks

	XORQ AX, AX   // offset of the block
	XORQ R9, R9   // TABs and backslashes seen
	XORQ R10, R10 // backslash and CR bits of the last block
	XORQ R11, R11 // high bits of the last block

	// 64 bytes a step while no LF turns up and 64 bytes are left, in the
	// 256-bit registers; then VZEROUPPER, and the SSE2 steps below take
	// the rest with the accumulators folded into their lower halves.
	MOVBLZX wide+32(FP), CX
	TESTQ CX, CX
	JZ    pair
	VPBROADCASTB X10, Y10
	VPBROADCASTB X11, Y11
	VPBROADCASTB X12, Y12
	VPBROADCASTB X13, Y13
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
wide:
	MOVQ DX, CX
	SUBQ AX, CX
	CMPQ CX, $64
	JLT  narrow
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPCMPEQB Y0, Y10, Y2
	VPCMPEQB Y1, Y10, Y3
	VPOR Y2, Y3, Y2
	VPTEST Y2, Y2
	JNZ  narrow // an LF in these 64 bytes
	VPCMPEQB Y0, Y12, Y2 // backslash
	VPCMPEQB Y0, Y11, Y3 // TAB
	VPOR Y2, Y3, Y3
	VPOR Y2, Y14, Y14
	VPMOVMSKB Y3, BX
	VPCMPEQB Y1, Y12, Y4
	VPCMPEQB Y1, Y11, Y5
	VPOR Y4, Y5, Y5
	VPOR Y4, Y14, Y14
	VPMOVMSKB Y5, R13
	SHLQ $32, R13
	ORQ  R13, BX
	VPCMPEQB Y0, Y13, Y2 // CR
	VPCMPEQB Y1, Y13, Y4
	VPOR Y2, Y4, Y2
	VPOR Y2, Y14, Y14
	VPOR Y0, Y15, Y15
	VPOR Y1, Y15, Y15
marks4:
	TESTQ BX, BX
	JZ    nextwide
	BSFQ  BX, R14
	ADDQ  AX, R14
	CMPQ  R9, R8
	JGE   skip4
	MOVL  R14, (DI)(R9*4)
skip4:
	INCQ  R9
	BLSRQ BX, BX
	JMP   marks4
nextwide:
	ADDQ $64, AX
	JMP  wide
narrow:
	VEXTRACTI128 $1, Y14, X0
	VPOR X0, X14, X14
	VEXTRACTI128 $1, Y15, X0
	VPOR X0, X15, X15
	VZEROUPPER

	// 32 bytes a step while no LF turns up and 32 bytes are left; the
	// 16-byte loop below takes the block that holds the LF, and the tail.
pair:
	MOVQ DX, CX
	SUBQ AX, CX
	CMPQ CX, $32
	JLT  block
	MOVOU (SI)(AX*1), X0
	MOVOU 16(SI)(AX*1), X5
	MOVOU X0, X1
	PCMPEQB X10, X1
	PMOVMSKB X1, R12
	MOVOU X5, X6
	PCMPEQB X10, X6
	PMOVMSKB X6, R13
	ORQ  R13, R12
	JNZ  block // an LF in one of the halves
	MOVOU X0, X3
	PCMPEQB X12, X3 // backslash
	POR  X3, X14
	MOVOU X0, X2
	PCMPEQB X11, X2
	POR  X3, X2     // TAB or backslash
	PMOVMSKB X2, BX
	MOVOU X5, X6
	PCMPEQB X12, X6
	POR  X6, X14
	MOVOU X5, X7
	PCMPEQB X11, X7
	POR  X6, X7
	PMOVMSKB X7, R13
	SHLQ $16, R13
	ORQ  R13, BX
	MOVOU X0, X4
	PCMPEQB X13, X4
	POR  X4, X14
	MOVOU X5, X4
	PCMPEQB X13, X4
	POR  X4, X14
	POR  X0, X15
	POR  X5, X15
tabs3:
	TESTQ BX, BX
	JZ    nextpair
	BSFQ  BX, R14
	ADDQ  AX, R14
	CMPQ  R9, R8
	JGE   skip3
	MOVL  R14, (DI)(R9*4)
skip3:
	INCQ  R9
	LEAQ  -1(BX), R14
	ANDQ  R14, BX
	JMP   tabs3
nextpair:
	ADDQ $32, AX
	JMP  pair

block:
	MOVQ DX, CX
	SUBQ AX, CX   // bytes left
	JLE  nolf
	MOVOU (SI)(AX*1), X0
	MOVOU X0, X1
	PCMPEQB X10, X1
	PMOVMSKB X1, R12 // LF
	MOVOU X0, X3
	PCMPEQB X12, X3  // backslash
	MOVOU X0, X2
	PCMPEQB X11, X2
	POR X3, X2
	PMOVMSKB X2, BX  // TAB or backslash
	MOVOU X0, X4
	PCMPEQB X13, X4
	POR X4, X3       // backslash or CR
	CMPQ CX, $16
	JLT  short
	TESTQ R12, R12
	JNZ  last

	// A whole block without LF.
	POR X3, X14
	POR X0, X15
tabs2:
	TESTQ BX, BX
	JZ    next
	BSFQ  BX, R14
	ADDQ  AX, R14
	CMPQ  R9, R8
	JGE   skip2
	MOVL  R14, (DI)(R9*4)
skip2:
	INCQ  R9
	LEAQ  -1(BX), R14
	ANDQ  R14, BX
	JMP   tabs2
next:
	ADDQ $16, AX
	JMP  block

short:
	// The block runs past n: keep the bits of the bytes before it, then
	// treat the block as the last.
	MOVQ $1, R15
	SHLQ CX, R15
	DECQ R15
	ANDQ R15, R12
	ANDQ R15, BX
	PMOVMSKB X3, R10
	PMOVMSKB X0, R11
	ANDQ R15, R10
	ANDQ R15, R11
	TESTQ R12, R12
	JZ    lastnolf
	JMP   cut

last:
	PMOVMSKB X3, R10
	PMOVMSKB X0, R11
cut:
	// Keep the bits before the LF.
	BSFQ R12, CX
	MOVQ $1, R15
	SHLQ CX, R15
	DECQ R15
	ANDQ R15, BX
	ANDQ R15, R10
	ANDQ R15, R11
	ADDQ AX, CX
	MOVQ CX, lf+40(FP)
	JMP  tabs1

lastnolf:
	MOVQ $-1, lf+40(FP)

tabs1:
	TESTQ BX, BX
	JZ    done
	BSFQ  BX, R14
	ADDQ  AX, R14
	CMPQ  R9, R8
	JGE   skip1
	MOVL  R14, (DI)(R9*4)
skip1:
	INCQ  R9
	LEAQ  -1(BX), R14
	ANDQ  R14, BX
	JMP   tabs1

nolf:
	MOVQ $-1, lf+40(FP)

done:
	MOVQ R9, nmarks+48(FP)
	PMOVMSKB X14, R12
	ORQ  R12, R10
	PMOVMSKB X15, R13
	ORQ  R13, R11
	XORQ BX, BX
	TESTQ R10, R10
	JZ    noescape
	ORQ   $1, BX
noescape:
	TESTQ R11, R11
	JZ    nohigh
	ORQ   $2, BX
nohigh:
	MOVQ BX, flags+56(FP)
	RET
