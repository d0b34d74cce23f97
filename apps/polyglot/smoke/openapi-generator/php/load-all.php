<?php
// Loads every class of the generated client through autoload.php (argument: the generated project), so that a class
// that does not load, or a dependency Debian's packages lack, fails here rather than once used.
require __DIR__ . '/autoload.php';
$lib = $argv[1] . '/lib/';
$count = 0;
foreach (new RecursiveIteratorIterator(new RecursiveDirectoryIterator($lib)) as $file) {
    if ($file->getExtension() !== 'php') {
        continue;
    }
    $class = 'Aggregation\\Client\\' . str_replace('/', '\\', substr($file->getPathname(), strlen($lib), -4));
    if (!class_exists($class) && !interface_exists($class)) {
        fwrite(STDERR, "$class did not load\n");
        exit(1);
    }
    $count++;
}
echo "$count classes\n";
