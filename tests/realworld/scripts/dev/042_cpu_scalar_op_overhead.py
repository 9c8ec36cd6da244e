import torch
import time

x = torch.ones(1, requires_grad=True)

start = time.time()
for _ in range(1000000):
    y = 2*x
    
print(time.time() - start)
