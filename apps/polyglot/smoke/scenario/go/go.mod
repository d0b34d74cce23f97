module aggregation.example/scenario

go 1.25
