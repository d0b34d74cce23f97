<?php
// Loads openapi-generator's PHP client without Composer: Guzzle from Debian's php-guzzlehttp-* packages, and the
// client's namespace mapped to its lib/ (CLIENT_DIR, the generated project).
require_once '/usr/share/php/GuzzleHttp/autoload.php';
require_once '/usr/share/php/GuzzleHttp/Psr7/autoload.php';

$clientDir = getenv('CLIENT_DIR') ?: ($argv[1] ?? null);
if (!$clientDir) {
    fwrite(STDERR, "set CLIENT_DIR to the generated project\n");
    exit(2);
}
spl_autoload_register(function (string $class) use ($clientDir): void {
    $prefix = 'Aggregation\\Client\\';
    if (str_starts_with($class, $prefix)) {
        $file = $clientDir . '/lib/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
