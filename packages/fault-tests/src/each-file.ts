// A setup file (vitest runs it before each test file's tests, in the process they share): the tally is the file's.
import { afterAll } from 'vitest';
import { endOfFile } from './tally.ts';

afterAll(endOfFile);
