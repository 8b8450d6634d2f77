/** Issue 28's unseen cases for nodemailer (fixture and cases: ./nodemailer.ts; expectations: ./nodemailer.expected.ts). */
import { ratchet } from './ratchet';

ratchet('nodemailer');
