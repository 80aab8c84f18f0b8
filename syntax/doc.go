// Package syntax holds the front end of son for the integer core of Cliff
// Click's Simple language: the scanner, the parser, the abstract syntax tree,
// the name resolver, and a formatter that prints a tree back as canonical
// source.
//
// Parse turns source into a resolved *File: every name points at its *Var,
// variables carry dense IDs and stack slots, and each loop lists the outer
// variables it assigns. Format is its inverse up to layout. Names are
// resolved during the parse, in one pass, and the tree's nodes come from
// slabs: a parse allocates a few objects per thousand nodes.
//
// The grammar, in brief (Java precedence, lowest first):
//
//	program = { stmt } EOF
//	stmt    = "{" { stmt } "}" | decl ";" | simple ";" | "if" "(" expr ")" stmt [ "else" stmt ]
//	        | "while" "(" expr ")" stmt | "for" "(" [ decl | simple ] ";" [ expr ] ";" [ simple ] ")" stmt
//	        | "break" ";" | "continue" ";" | "return" expr ";" | "#showGraph" ";" | ";"
//	decl    = ("int" | "bool" | "var" | "val") IDENT [ "=" expr ] { "," IDENT [ "=" expr ] }
//	simple  = IDENT assign_op expr | IDENT ("++" | "--") | ("++" | "--") IDENT | expr
//	expr    = a ? b : c  >  ||  >  &&  >  |  >  ^  >  &  >  == !=  >  < <= > >=
//	          >  << >> >>>  >  + -  >  * / %  >  unary - !  >  INT true false IDENT ( expr )
//
// Binary operators are left associative, ?: is right associative, and two or
// more relational operators in a row form one chained comparison
// (a < b <= c). The literal 9223372036854775808 is allowed only directly
// after unary minus.
//
// Errors are reported as an ErrorList sorted by position, each printed as
// "file:line:col: message" with 1-based line and byte column. Messages are
// lowercase without a final period; syntax errors read
// "syntax error: unexpected X, expected Y". The scanner reports a bad
// character or literal and goes on. After a syntax error the parser skips
// the rest of the statement (to the next ';' at the same brace depth, to the
// '}' closing the block, or to the ')' closing a for header) and goes on, so
// it reports at most one syntax error per statement; it stops with a final
// "too many errors" when an eleventh error comes, and at once when nesting
// exceeds 10000 levels. Names are resolved only in a file without syntax
// errors, and every resolver error is reported.
package syntax
