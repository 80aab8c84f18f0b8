	; 16: while (arg) {
	test rdi, rdi
	je L22
	.p2align 4,,10
L21:
	; 19: arg = arg - 1;
	sub rdi, 0x1
	; 16: while (arg) {
	test rdi, rdi
	jne L21
L22:
	mov eax, 0x1
	; 21: return x;
	ret
