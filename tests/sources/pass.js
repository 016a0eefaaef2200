require("fs").readFileSync(0, "utf8");
console.log(JSON.stringify({ response: "PASS" }));
