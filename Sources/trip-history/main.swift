import Hummingbird
print("hi")
