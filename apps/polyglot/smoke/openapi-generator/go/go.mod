module aggregation.example/smoke/openapi-generator-go

go 1.25

require aggregation.example/openapi-generator/go v0.0.0

require gopkg.in/validator.v2 v2.0.1 // indirect

replace aggregation.example/openapi-generator/go => ../../../../../clients/openapi-generator/go
