//go:build !purego

#include "textflag.h"

// func countValueBytesAVX2(p *byte, n int) int
//
// See countValueBytes in count_amd64.go: how many of the n bytes at p are
// ',', '[' or '{'. It loads 32 bytes a step (AVX2, which the caller
// checks, with POPCNT) while 32 are left, and takes the rest a byte at a
// time; it reads no byte past n.
TEXT ·countValueBytesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), BX
	XORQ AX, AX // the count

	MOVL $0x2c, CX
	MOVD CX, X1
	VPBROADCASTB X1, Y1 // ','
	MOVL $0x5b, CX
	MOVD CX, X2
	VPBROADCASTB X2, Y2 // '['
	MOVL $0x7b, CX
	MOVD CX, X3
	VPBROADCASTB X3, Y3 // '{'

wide:
	CMPQ BX, $32
	JB   tail
	VMOVDQU (SI), Y0
	VPCMPEQB Y0, Y1, Y4
	VPCMPEQB Y0, Y2, Y5
	VPCMPEQB Y0, Y3, Y6
	VPOR Y4, Y5, Y4
	VPOR Y4, Y6, Y4
	VPMOVMSKB Y4, DX
	POPCNTL DX, DX
	ADDQ DX, AX
	ADDQ $32, SI
	SUBQ $32, BX
	JMP  wide

tail:
	VZEROUPPER
	TESTQ BX, BX
	JZ    done
byte:
	MOVBLZX (SI), DX
	CMPB DL, $0x2c
	JEQ  hit
	CMPB DL, $0x5b
	JEQ  hit
	CMPB DL, $0x7b
	JNE  next
hit:
	INCQ AX
next:
	INCQ SI
	DECQ BX
	JNZ  byte
done:
	MOVQ AX, ret+16(FP)
	RET
