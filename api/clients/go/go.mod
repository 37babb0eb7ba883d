module gsm

go 1.19
