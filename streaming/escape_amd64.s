//go:build !purego

#include "textflag.h"

// func escapeASCII(dst *byte, room int, src *byte, n int) (read, written int)
//
// See escapeASCII in escape_amd64.go. A byte needs a look of its own when,
// taken as signed, it is below 0x0E (a control up to CR, or not ASCII) or
// is a backslash: two compares a vector. The letters come from valueLetter,
// spec.ValueEscapes' table.
TEXT ·escapeASCII(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ room+8(FP), R8
	ADDQ DI, R8                   // end of the room
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX             // bytes left to read
	LEAQ ·valueLetter(SB), R9
	MOVQ SI, R10
	MOVQ DI, R11

	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6             // backslash in every byte
	MOVQ $0x0e0e0e0e0e0e0e0e, AX
	MOVQ AX, X7
	PUNPCKLQDQ X7, X7             // 0x0E in every byte

block:
	CMPQ CX, $16
	JLT  tail
	MOVOU (SI), X0
	MOVOU X0, X1
	PCMPEQB X6, X1
	MOVOU X7, X2
	PCMPGTB X0, X2
	POR  X1, X2
	PMOVMSKB X2, AX
	MOVOU X0, (DI)
	TESTL AX, AX
	JNZ  found
	ADDQ $16, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  block

tail:
	TESTQ CX, CX
	JZ   done
	MOVQ SI, AX
	ANDQ $0xfff, AX
	CMPQ AX, $0xff0
	JHI  bytewise                 // 16 bytes from SI would cross into the next page
	MOVOU (SI), X0
	MOVOU X0, X1
	PCMPEQB X6, X1
	MOVOU X7, X2
	PCMPGTB X0, X2
	POR  X1, X2
	PMOVMSKB X2, AX
	MOVOU X0, (DI)
	MOVL $1, DX
	SHLL CX, DX
	DECL DX
	ANDL DX, AX                   // only the CX bytes of the string
	JNZ  found
	ADDQ CX, SI
	ADDQ CX, DI
	JMP  done

bytewise:
	MOVBLZX (SI), AX
	CMPB AL, $0x0e
	JCS  special
	CMPB AL, $0x5c
	JEQ  special
	CMPB AL, $0x80
	JCC  special
	MOVB AL, (DI)
	INCQ SI
	INCQ DI
	DECQ CX
	JNZ  bytewise
	JMP  done

found:
	BSFL AX, AX
	ADDQ AX, SI
	ADDQ AX, DI
	SUBQ AX, CX

special: // SI is at a byte that needs a look; CX > 0
	MOVBLZX (SI), AX
	CMPL AX, $0x80
	JCC  done                     // not ASCII: the caller's
	MOVBLZX (R9)(AX*1), DX
	TESTL DX, DX
	JZ   asis
	// Two bytes for one: go on only while what is left fits with the slack.
	MOVQ R8, BX
	SUBQ DI, BX
	LEAQ 17(CX), R12
	CMPQ BX, R12
	JLT  done
	MOVB $0x5c, (DI)
	MOVB DX, 1(DI)
	ADDQ $2, DI
	INCQ SI
	DECQ CX
	JMP  block

asis: // a control that is data [ENC-4]
	MOVB AX, (DI)
	INCQ SI
	INCQ DI
	DECQ CX
	JMP  block

done:
	SUBQ R10, SI
	SUBQ R11, DI
	MOVQ SI, read+32(FP)
	MOVQ DI, written+40(FP)
	RET

// func escapeRow(dst *byte, vals *string, n int) (k, read, written int)
//
// See escapeRow in escape_amd64.go. The same scan as escapeASCII, value
// after value with a TAB between them, and no check of room: the caller
// has made room for twice the values' bytes, their TABs and the slack.
TEXT ·escapeRow(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ DI, R11
	MOVQ vals+8(FP), BX
	MOVQ n+16(FP), R12
	XORQ R13, R13                 // k
	LEAQ ·valueLetter(SB), R9

	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6             // backslash in every byte
	MOVQ $0x0e0e0e0e0e0e0e0e, AX
	MOVQ AX, X7
	PUNPCKLQDQ X7, X7             // 0x0E in every byte

	TESTQ R12, R12
	JZ   alldone
	JMP  value

next: // value k is written
	INCQ R13
	CMPQ R13, R12
	JEQ  alldone
	ADDQ $16, BX
	MOVB $0x09, (DI)
	INCQ DI

value:
	MOVQ 0(BX), SI
	MOVQ 8(BX), CX
	MOVQ SI, R10

block:
	CMPQ CX, $16
	JLT  tail
	MOVOU (SI), X0
	MOVOU X0, X1
	PCMPEQB X6, X1
	MOVOU X7, X2
	PCMPGTB X0, X2
	POR  X1, X2
	PMOVMSKB X2, AX
	MOVOU X0, (DI)
	TESTL AX, AX
	JNZ  found
	ADDQ $16, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  block

tail:
	TESTQ CX, CX
	JZ   next
	MOVQ SI, AX
	ANDQ $0xfff, AX
	CMPQ AX, $0xff0
	JHI  bytewise                 // 16 bytes from SI would cross into the next page
	MOVOU (SI), X0
	MOVOU X0, X1
	PCMPEQB X6, X1
	MOVOU X7, X2
	PCMPGTB X0, X2
	POR  X1, X2
	PMOVMSKB X2, AX
	MOVOU X0, (DI)
	MOVL $1, DX
	SHLL CX, DX
	DECL DX
	ANDL DX, AX                   // only the CX bytes of the string
	JNZ  found
	ADDQ CX, SI
	ADDQ CX, DI
	JMP  next

bytewise:
	MOVBLZX (SI), AX
	CMPB AL, $0x0e
	JCS  special
	CMPB AL, $0x5c
	JEQ  special
	CMPB AL, $0x80
	JCC  special
	MOVB AL, (DI)
	INCQ SI
	INCQ DI
	DECQ CX
	JNZ  bytewise
	JMP  next

found:
	BSFL AX, AX
	ADDQ AX, SI
	ADDQ AX, DI
	SUBQ AX, CX

special: // SI is at a byte that needs a look; CX > 0
	MOVBLZX (SI), AX
	CMPL AX, $0x80
	JCC  stop                     // not ASCII: the caller's
	MOVBLZX (R9)(AX*1), DX
	TESTL DX, DX
	JZ   asis
	MOVB $0x5c, (DI)
	MOVB DX, 1(DI)
	ADDQ $2, DI
	INCQ SI
	DECQ CX
	JMP  block

asis: // a control that is data [ENC-4]
	MOVB AX, (DI)
	INCQ SI
	INCQ DI
	DECQ CX
	JMP  block

stop:
	SUBQ R10, SI
	MOVQ R13, k+24(FP)
	MOVQ SI, read+32(FP)
	SUBQ R11, DI
	MOVQ DI, written+40(FP)
	RET

alldone:
	MOVQ R13, k+24(FP)
	MOVQ $0, read+32(FP)
	SUBQ R11, DI
	MOVQ DI, written+40(FP)
	RET
