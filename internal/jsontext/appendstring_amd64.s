//go:build !purego

#include "textflag.h"

// func appendEscaped(dst *byte, room int, src *byte, n int) (read, written int)
//
// See appendEscaped in appendstring_amd64.go. A byte is escaped when it is
// a quote, a backslash or, taken unsigned, at most 0x1F: three compares a
// vector (the last as min(b, 0x1F) == b). The escapes come from
// escapeSpelling, eight bytes an entry, its length in the top byte.
// Throughout, R8-DI (the room left) is at least CX (what is left to read)
// and 16, so that each 16-byte store and each 8-byte escape fits.
// COPY_AND_MARK loads the 16 bytes at SI, stores them at DI, and sets
// the bits of AX of the bytes to escape.
#define COPY_AND_MARK \
	MOVOU (SI), X0 \
	MOVOU X0, (DI) \
	MOVOU X0, X1 \
	PCMPEQB X5, X1 \
	MOVOU X0, X2 \
	PCMPEQB X6, X2 \
	MOVOU X0, X3 \
	PMINUB X7, X3 \
	PCMPEQB X0, X3 \
	POR  X1, X2 \
	POR  X2, X3 \
	PMOVMSKB X3, AX

TEXT ·appendEscaped(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ room+8(FP), R8
	ADDQ DI, R8                   // end of the room
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX             // bytes left to read
	LEAQ ·escapeSpelling(SB), R9
	MOVQ SI, R10
	MOVQ DI, R11

	MOVQ $0x2222222222222222, AX
	MOVQ AX, X5
	PUNPCKLQDQ X5, X5             // quote in every byte
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6             // backslash in every byte
	MOVQ $0x1f1f1f1f1f1f1f1f, AX
	MOVQ AX, X7
	PUNPCKLQDQ X7, X7             // 0x1F in every byte

block:
	CMPQ CX, $16
	JLT  tail
	COPY_AND_MARK
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
	COPY_AND_MARK
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
	CMPB AL, $0x20
	JCS  escape
	CMPB AL, $0x22
	JEQ  escape
	CMPB AL, $0x5c
	JEQ  escape
	MOVB AL, (DI)
	INCQ SI
	INCQ DI
	DECQ CX
	JMP  tail

found:
	BSFL AX, AX
	ADDQ AX, SI
	ADDQ AX, DI
	SUBQ AX, CX
	MOVBLZX (SI), AX

escape: // AX is the byte at SI, one to escape; CX > 0
	MOVQ (R9)(AX*8), BX           // its escape, the length in the top byte
	MOVQ BX, DX
	SHRQ $56, DX
	// Written, the escape must leave room for the CX-1 bytes after it
	// and 16 more; else it is the caller's.
	MOVQ R8, AX
	SUBQ DI, AX
	SUBQ DX, AX
	LEAQ 15(CX), R12
	CMPQ AX, R12
	JLT  done
	MOVQ BX, (DI)
	ADDQ DX, DI
	INCQ SI
	DECQ CX
	JMP  block

done:
	SUBQ R10, SI
	SUBQ R11, DI
	MOVQ SI, read+32(FP)
	MOVQ DI, written+40(FP)
	RET
