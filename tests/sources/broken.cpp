#include <iostream>
int main() {
    std::cout << undeclared_name << std::endl;
}
