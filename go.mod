module son

go 1.24
