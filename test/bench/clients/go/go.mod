module gsmbench

go 1.19

require gsm v0.0.0

replace gsm => ../../../../api/clients/go
