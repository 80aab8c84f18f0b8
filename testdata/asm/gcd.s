	mov ecx, 0x42f
	; 13: while (b != 0) {
	test rcx, rcx
	je L24
	.p2align 4,,10
L21:
	; 14: int t = a % b;
	mov rax, rdi
	cmp rcx, -0x1
	je L25
	cqo
	idiv rcx
L23:
	mov rdi, rcx
	mov rcx, rdx
	; 13: while (b != 0) {
	test rcx, rcx
	jne L21
L24:
	; 18: return a;
	mov rax, rdi
	ret
L25:
	xor edx, edx
	jmp L23
