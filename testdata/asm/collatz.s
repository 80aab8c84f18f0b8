	xor eax, eax
	; 16: while (n > 1) {
	cmp rdi, 0x1
	jle L25
	.p2align 4,,10
L21:
	; 17: if (n % 2 == 0)
	test rdi, 0x1
	jne L23
	; 18: n = n / 2;
	mov rcx, rdi
	shr rcx, 0x3f
	add rcx, rdi
	sar rcx, 0x1
	mov rdi, rcx
	jmp L24
L23:
	; 20: n = 3 * n + 1;
	lea rdi, [rdi+rdi*2+0x1]
L24:
	; 21: steps++;
	add rax, 0x1
	; 16: while (n > 1) {
	cmp rdi, 0x1
	jg L21
L25:
	; 23: return steps;
	ret
