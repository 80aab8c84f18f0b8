	mov ebx, 0x42f
	; 13: while (b != 0) {
	test rbx, rbx
	je L25
	.p2align 4,,10
L21:
	; 14: int t = a % b;
	mov rax, rdi
	mov rcx, rbx
	lea rdx, [rcx-0x1]
	cmp rdx, 0x7fffffff
	ja L26
	cmp rax, 0x7fffffff
	ja L26
	xor edx, edx
	div ecx
L24:
	mov rdi, rbx
	mov rbx, rdx
	; 13: while (b != 0) {
	test rbx, rbx
	jne L21
L25:
	; 18: return a;
	mov rax, rdi
	ret
L26:
	cmp rcx, -0x1
	je L28
	cqo
	idiv rcx
	jmp L24
L28:
	xor edx, edx
	jmp L24
