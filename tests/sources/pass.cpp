// Answers PASS to any request (restart mode): the smallest C++ bot of the protocol.
#include <iostream>
#include <string>
int main() {
    std::string line;
    std::getline(std::cin, line);
    std::cout << "{\"response\":\"PASS\"}" << std::endl;
}
