	mov ecx, 0x42f
	; 13: while (b != 0) {
	test rcx, rcx
	je L25
L21:
	; 14: int t = a % b;
	mov rax, rdi
	cmp rcx, -0x1
	jne L23
	xor edx, edx
	jmp L24
L23:
	cqo
	idiv rcx
L24:
	mov rdi, rcx
	mov rcx, rdx
	; 13: while (b != 0) {
	test rcx, rcx
	jne L21
L25:
	; 18: return a;
	mov rax, rdi
	ret
