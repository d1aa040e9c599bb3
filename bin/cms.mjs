#!/usr/bin/env node
console.log("hi from cms", process.cwd())
