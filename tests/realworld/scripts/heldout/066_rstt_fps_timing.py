torch.cuda.synchronize()
start = time.time()
n = 100
for i in range(n):
    with torch.no_grad():
        outputs = model(inputs)
torch.cuda.synchronize()
end = time.time()
print('fps =', n*7.0/(end-start))
