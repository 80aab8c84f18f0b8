module son

go 1.23
