//go:build !purego

#include "textflag.h"

// func asciiBlocks(p *byte, blocks int) int
//
// See asciiBlocks in asciiblocks_amd64.go: the 64 bytes of a block ORed
// in four SSE2 registers, whose top bits PMOVMSKB takes.
TEXT ·asciiBlocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ blocks+8(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done

loop:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	POR  X1, X0
	POR  X3, X2
	POR  X2, X0
	PMOVMSKB X0, DX
	TESTL DX, DX
	JNZ  done
	ADDQ $64, SI
	INCQ AX
	CMPQ AX, CX
	JLT  loop

done:
	MOVQ AX, ret+16(FP)
	RET
