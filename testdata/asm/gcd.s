	mov ebx, 0x42f
	; 13: while (b != 0) {
	test rbx, rbx
	je L24
	.p2align 4,,10
L21:
	; 14: int t = a % b;
	mov rax, rdi
	mov rcx, rbx
	lea rdx, [rcx-0x1]
	or rdx, rax
	test rdx, -0x80000000
	jne L25
	xor edx, edx
	div ecx
L23:
	mov rdi, rbx
	mov rbx, rdx
	; 13: while (b != 0) {
	test rbx, rbx
	jne L21
L24:
	; 18: return a;
	mov rax, rdi
	ret
L25:
	cmp rcx, -0x1
	je L27
	cqo
	idiv rcx
	jmp L23
L27:
	xor edx, edx
	jmp L23
